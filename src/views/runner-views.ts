// Reads of runners for API v3: lists (the caller's, every runner, a project's), one runner with the
// projects the caller may see, and what the caller is to a runner (for the runner policies).
import type { Deps } from '../deps.ts';
import {
  countRunnerProjects,
  countRunners,
  findRunner,
  isAuthorizedRunner,
  isRunnerAssigned,
  listRunners,
  runnerProjectIds,
  type RunnerListFilter,
  type RunnerListSource,
  type RunnerScope,
} from '../db/repositories/runners.ts';
import { findProjectRecordsByIds } from '../db/repositories/projects.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { recordNotFound } from '../errors.ts';
import { projectAccessMany } from '../policies/access.ts';
import { runnerProjectShown, runnerTokenShown, type RunnerCaller } from '../policies/ci.ts';
import { presentRunner, presentRunnerDetails } from '../presenters/api-v3/runner.ts';
import type { CiRunnerRow, UserRow } from '../db/types.ts';
import type { RunnerStatus } from '../domain/types.ts';

export type { RunnerListSource, RunnerScope };

const ONLINE_WITHIN_MS = 60 * 60 * 1000;

function listFilter(scope: RunnerScope | undefined): RunnerListFilter {
  return { scope, onlineSince: new Date(Date.now() - ONLINE_WITHIN_MS).toISOString() };
}

export function countRunnerList(deps: Deps, source: RunnerListSource, scope: RunnerScope | undefined) {
  return countRunners(deps.db.kysely, source, listFilter(scope));
}

export async function listRunnersPage(
  deps: Deps,
  source: RunnerListSource,
  scope: RunnerScope | undefined,
  page: { limit: number; offset: number },
) {
  return (await listRunners(deps.db.kysely, source, listFilter(scope), page)).map(presentRunner);
}

export function runnerStatus(
  runner: CiRunnerRow,
  onlineSince = listFilter(undefined).onlineSince,
): RunnerStatus {
  if (runner.contacted_at === null) return 'not_connected';
  if (runner.active !== 1) return 'paused';
  return runner.contacted_at > onlineSince ? 'online' : 'offline';
}

/** A page of runner rows with their status, for the administrators' page: one query. */
export function listRunnerStatusPage(
  deps: Deps,
  scope: RunnerScope | undefined,
  page: { limit: number; offset: number },
) {
  return listRunnerRowsPage(deps, { kind: 'all' }, scope, page);
}

export function findRunnerById(deps: Deps, id: number): Promise<CiRunnerRow | undefined> {
  return findRunner(deps.db.kysely, id);
}

/** A runner by the id in the path; 404 `404 Not found` (a failed find) for anything else. */
export async function loadRunnerOr404(deps: Deps, id: number | undefined): Promise<CiRunnerRow> {
  const runner = id === undefined ? undefined : await findRunner(deps.db.kysely, id);
  if (!runner) throw recordNotFound();
  return runner;
}

export async function runnerCaller(deps: Deps, viewer: UserRow, runner: CiRunnerRow): Promise<RunnerCaller> {
  const admin = viewer.admin === 1;
  return {
    admin,
    managesRunner: runner.is_shared !== 1 && (await isAuthorizedRunner(deps.db.kysely, viewer.id, runner.id)),
  };
}

export function runnerProjectCount(deps: Deps, runnerId: number): Promise<number> {
  return countRunnerProjects(deps.db.kysely, runnerId);
}

export function runnerAssignedTo(deps: Deps, runnerId: number, projectId: number): Promise<boolean> {
  return isRunnerAssigned(deps.db.kysely, runnerId, projectId);
}

/** A runner's details as both versions show them: its projects are those the caller is a member of
 * (all of them for administrators), each with its namespace owner. */
export async function runnerDetailsModel(deps: Deps, viewer: UserRow, runner: CiRunnerRow) {
  const db = deps.db.kysely;
  const caller = { admin: viewer.admin === 1 };
  const projectIds = (await runnerProjectIds(db, runner.id)).sort((a, b) => a - b);
  const records = await findProjectRecordsByIds(db, projectIds);
  const access = await projectAccessMany(db, viewer, records);
  const shown = records.filter((record) => runnerProjectShown(caller, access.get(record.project.id)!));
  const ownerIds = shown
    .filter((record) => record.namespace.type !== 'Group' && record.namespace.owner_id !== null)
    .map((record) => record.namespace.owner_id!);
  const owners = await usersByIds(db, ownerIds);
  return {
    showToken: runnerTokenShown(runner, caller),
    status: runnerStatus(runner),
    projects: shown.map((record) => ({
      record,
      owner: record.namespace.owner_id === null ? null : (owners.get(record.namespace.owner_id) ?? null),
    })),
    baseUrl: deps.config.externalUrl,
  };
}

/** RunnerDetails (v3). */
export async function runnerDetails(deps: Deps, viewer: UserRow, runner: CiRunnerRow) {
  return presentRunnerDetails(runner, await runnerDetailsModel(deps, viewer, runner));
}

/** A page of runner rows with their status (v4 lists them so). */
export async function listRunnerRowsPage(
  deps: Deps,
  source: RunnerListSource,
  scope: RunnerScope | undefined,
  page: { limit: number; offset: number },
) {
  const filter = listFilter(scope);
  const runners = await listRunners(deps.db.kysely, source, filter, page);
  return runners.map((runner) => ({ runner, status: runnerStatus(runner, filter.onlineSince) }));
}
