// Runners as the runner protocol knows them: registration with the shared registration token (a shared
// runner) or a project's runners token (a runner specific to that project), unregistration, the token
// check of every runner call, and the contact bookkeeping; and as API v3 manages them: settings,
// enabling a specific runner for more projects, taking it away from one, removing it.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { conflict, forbidden, notFound, validationFailed } from '../../errors.ts';
import { friendlyToken, hexToken } from '../../lib/tokens.ts';
import { findProjectRecordByRunnersToken } from '../../db/repositories/projects.ts';
import {
  assignRunner,
  assignRunnerIfAbsent,
  countRunnerProjects,
  deleteRunner,
  findRunnerByToken,
  insertRunner,
  isRunnerAssigned,
  lockRunner,
  unassignRunner,
  updateRunner,
} from '../../db/repositories/runners.ts';
import { findSetting, insertSettingIfAbsent, replaceSetting } from '../../db/repositories/settings.ts';
import { canRunnerAskForBuilds, isRegistrationToken, disableRunnerRefusal } from '../../policies/ci.ts';
import type { CiRunnerChanges, CiRunnerRow } from '../../db/types.ts';

const REGISTRATION_TOKEN_KEY = 'runners_registration_token';

/**
 * The shared runner registration token: LABRADOR_RUNNER_TOKEN when set, otherwise one generated on first
 * use and kept in the settings table (so every process and restart agrees on it).
 */
export async function runnerRegistrationToken(deps: Deps): Promise<string> {
  if (deps.config.runnerToken) return deps.config.runnerToken;
  const db = deps.db.kysely;
  return (
    (await findSetting(db, REGISTRATION_TOKEN_KEY)) ??
    insertSettingIfAbsent(db, REGISTRATION_TOKEN_KEY, friendlyToken())
  );
}

/** Whether the shared registration token is fixed by LABRADOR_RUNNER_TOKEN (then it cannot be reset). */
export function runnerRegistrationTokenFixed(deps: Deps): boolean {
  return Boolean(deps.config.runnerToken);
}

/**
 * Replaces the shared registration token (GitLab's "Reset runners registration token"): runners already
 * registered keep working, new registrations need the new token. Refused while the token is fixed.
 */
export async function resetRunnerRegistrationToken(deps: Deps): Promise<string> {
  if (runnerRegistrationTokenFixed(deps)) {
    throw conflict('The registration token is set by LABRADOR_RUNNER_TOKEN and cannot be reset here');
  }
  const token = friendlyToken();
  await replaceSetting(deps.db.kysely, REGISTRATION_TOKEN_KEY, token);
  return token;
}

/** What a runner says about itself (`info` of its requests). */
export interface RunnerInfo {
  name?: string;
  version?: string;
  revision?: string;
  platform?: string;
  architecture?: string;
}

export interface RunnerRegistration {
  token: string;
  description?: string;
  /** Comma-separated (as runners send it) or a list. */
  tagList?: string | string[];
  runUntagged?: boolean;
  locked?: boolean;
  /** v4's `paused`: registered but handed no jobs until resumed. */
  paused?: boolean;
  info: RunnerInfo;
}

/** acts-as-taggable's reading of a tag list: comma-separated, trimmed, blanks and repeats dropped. */
export function parseTagList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const items = Array.isArray(value) ? value.flatMap((item) => item.split(',')) : value.split(',');
  return [...new Set(items.map((item) => item.trim()).filter((item) => item !== ''))];
}

function infoChanges(info: RunnerInfo): CiRunnerChanges {
  const changes: CiRunnerChanges = {};
  for (const key of ['name', 'version', 'revision', 'platform', 'architecture'] as const) {
    if (info[key] !== undefined) changes[key] = info[key];
  }
  return changes;
}

/**
 * POST runners/register: the shared token makes a shared runner, a project's runners token a runner of
 * that project, anything else 403. A runner that may not run untagged builds needs tags (GitLab's
 * validation failed, and the API answered 404).
 */
export async function registerRunner(deps: Deps, registration: RunnerRegistration): Promise<CiRunnerRow> {
  const db = deps.db.kysely;
  const shared = isRegistrationToken(registration.token, await runnerRegistrationToken(deps));
  const project = shared ? undefined : await findProjectRecordByRunnersToken(db, registration.token);
  if (!shared && !project) throw forbidden();
  const tags = parseTagList(registration.tagList);
  const runUntagged = registration.runUntagged ?? true;
  if (tags.length === 0 && !runUntagged) throw notFound();
  const at = now();
  return db.transaction().execute(async (trx) => {
    const runner = await insertRunner(trx, {
      token: hexToken(),
      description: registration.description ?? null,
      is_shared: shared ? 1 : 0,
      active: registration.paused ? 0 : 1,
      locked: registration.locked ? 1 : 0,
      run_untagged: runUntagged ? 1 : 0,
      tag_list: JSON.stringify(tags),
      name: null,
      version: null,
      revision: null,
      platform: null,
      architecture: null,
      contacted_at: null,
      created_at: at,
      updated_at: at,
      ...infoChanges(registration.info),
    });
    if (project) await assignRunner(trx, runner.id, project.project.id, at);
    return runner;
  });
}

/** The runner a call's `token` names; 403 for none (a removed runner learns it is gone). */
export async function authenticateRunner(deps: Deps, token: string | undefined): Promise<CiRunnerRow> {
  const runner = token ? await findRunnerByToken(deps.db.kysely, token) : undefined;
  if (!runner) throw forbidden();
  return runner;
}

/** The runner asking for a build: authenticated (else 403) and not paused (else 404, as 8.13). */
export async function authenticateActiveRunner(deps: Deps, token: string | undefined): Promise<CiRunnerRow> {
  const runner = await authenticateRunner(deps, token);
  if (!canRunnerAskForBuilds(runner)) throw notFound();
  return runner;
}

// GitLab wrote contacts at most every 10–20 minutes (a random threshold per call), not on every poll.
const CONTACT_EVERY_MS = 10 * 60 * 1000;

/** Notes the runner's contact and what it says about itself, unless it was noted recently. */
export async function recordRunnerContact(deps: Deps, runner: CiRunnerRow, info: RunnerInfo): Promise<void> {
  const threshold = CONTACT_EVERY_MS + Math.random() * CONTACT_EVERY_MS;
  if (runner.contacted_at && Date.now() - Date.parse(runner.contacted_at) < threshold) return;
  const at = now();
  await updateRunner(deps.db.kysely, runner.id, { contacted_at: at, ...infoChanges(info) });
  runner.contacted_at = at;
}

/** What PUT /runners/:id may change; absent fields stay as they are. */
export interface RunnerSettings {
  description?: string;
  active?: boolean;
  tagList?: string[];
  runUntagged?: boolean;
  locked?: boolean;
}

/**
 * Changes a runner's settings. A runner that may not run untagged builds needs tags (GitLab's
 * `tags_list` validation, answered as a 400 validation hash).
 */
export async function updateRunnerSettings(
  deps: Deps,
  runner: CiRunnerRow,
  settings: RunnerSettings,
): Promise<CiRunnerRow> {
  const tags = settings.tagList ?? (JSON.parse(runner.tag_list) as string[]);
  const runUntagged = settings.runUntagged ?? runner.run_untagged === 1;
  if (tags.length === 0 && !runUntagged) {
    throw validationFailed({
      tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'],
    });
  }
  const changes: CiRunnerChanges = { updated_at: now() };
  if (settings.description !== undefined) changes.description = settings.description;
  if (settings.active !== undefined) changes.active = settings.active ? 1 : 0;
  if (settings.tagList !== undefined) changes.tag_list = JSON.stringify(settings.tagList);
  if (settings.runUntagged !== undefined) changes.run_untagged = settings.runUntagged ? 1 : 0;
  if (settings.locked !== undefined) changes.locked = settings.locked ? 1 : 0;
  await updateRunner(deps.db.kysely, runner.id, changes);
  return { ...runner, ...changes } as CiRunnerRow;
}

/** Enables a specific runner for a project: 409 when it already was (Runner#assign_to). */
export async function enableRunnerForProject(
  deps: Deps,
  runner: CiRunnerRow,
  projectId: number,
): Promise<void> {
  if (!(await assignRunnerIfAbsent(deps.db.kysely, runner.id, projectId, now()))) {
    throw conflict('Runner was already enabled for this project');
  }
}

/**
 * Takes a runner away from a project. Under the runner's row lock, so two projects disabling the same
 * runner at once cannot leave it with none: the second sees it has one project left and is refused.
 * 404 `Runner Not Found` when the runner is not the project's.
 */
export async function disableRunnerForProject(
  deps: Deps,
  runner: CiRunnerRow,
  projectId: number,
): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    await lockRunner(trx, runner.id, now());
    if (!(await isRunnerAssigned(trx, runner.id, projectId))) throw notFound('Runner');
    const refusal = disableRunnerRefusal(await countRunnerProjects(trx, runner.id));
    if (refusal) throw forbidden(refusal);
    await unassignRunner(trx, runner.id, projectId);
  });
}

/**
 * Removes a runner (DELETE /runners/:id, and the runner's own DELETE /ci/api/v1/runners/delete): its
 * assignments go with it, its builds keep its id.
 */
export async function removeRunner(deps: Deps, runner: CiRunnerRow): Promise<void> {
  await deleteRunner(deps.db.kysely, runner.id);
}

/**
 * POST /api/v4/runners/reset_authentication_token: the runner gets a new token at once; the old one
 * stops working (runner 17 writes the new one into its config.toml).
 */
export async function resetRunnerAuthenticationToken(deps: Deps, runner: CiRunnerRow): Promise<string> {
  const token = runnerTokenLike(runner.token);
  await updateRunner(deps.db.kysely, runner.id, { token, updated_at: now() });
  return token;
}

/** A created runner's tokens keep the `glrt-` prefix runner 17 tells them apart by (TokenIsCreatedRunnerToken). */
const CREATED_RUNNER_PREFIX = 'glrt-';

function runnerTokenLike(previous: string): string {
  return previous.startsWith(CREATED_RUNNER_PREFIX)
    ? `${CREATED_RUNNER_PREFIX}${friendlyToken()}`
    : hexToken();
}

export interface RunnerCreation {
  /** undefined: an instance (shared) runner; else the project it runs for. */
  projectId: number | undefined;
  description?: string;
  tagList?: string | string[];
  runUntagged?: boolean;
  locked?: boolean;
  paused?: boolean;
}

/**
 * GitLab 16's creation flow (POST /api/v4/user/runners): a person makes the runner first and hands its
 * `glrt-` token to `gitlab-runner register --token`, which only verifies it. The caller's right to do so
 * is checked by the route (administrator for an instance runner, master of the project otherwise).
 */
export async function createRunner(deps: Deps, creation: RunnerCreation): Promise<CiRunnerRow> {
  const tags = parseTagList(creation.tagList);
  const runUntagged = creation.runUntagged ?? true;
  if (tags.length === 0 && !runUntagged) {
    throw validationFailed({
      tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'],
    });
  }
  const at = now();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const runner = await insertRunner(trx, {
      token: `${CREATED_RUNNER_PREFIX}${friendlyToken()}`,
      description: creation.description ?? null,
      is_shared: creation.projectId === undefined ? 1 : 0,
      active: creation.paused ? 0 : 1,
      locked: creation.locked ? 1 : 0,
      run_untagged: runUntagged ? 1 : 0,
      tag_list: JSON.stringify(tags),
      name: null,
      version: null,
      revision: null,
      platform: null,
      architecture: null,
      contacted_at: null,
      created_at: at,
      updated_at: at,
    });
    if (creation.projectId !== undefined) await assignRunner(trx, runner.id, creation.projectId, at);
    return runner;
  });
}
