// Runners (ci_runners) and the projects specific runners are assigned to (ci_runner_projects).
import { sql } from 'kysely';
import { inList, prepared } from '../prepared.ts';
import type { CiRunnerChanges, CiRunnerRow, Executor, NewCiRunner } from '../types.ts';

/** Every column, named: a prepared shape keeps its result shape when a migration adds a column. */
const RUNNER_COLUMNS = [
  'id',
  'token',
  'description',
  'is_shared',
  'active',
  'locked',
  'run_untagged',
  'tag_list',
  'name',
  'version',
  'revision',
  'platform',
  'architecture',
  'contacted_at',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof CiRunnerRow>;

const runnersByIdList = prepared<{ ids: number[] }>()((db, slot) =>
  db
    .selectFrom('ci_runners')
    .select(RUNNER_COLUMNS)
    .where(() => inList(db, 'id', slot('ids'))),
);

export async function runnersByIds(db: Executor, ids: number[]): Promise<Map<number, CiRunnerRow>> {
  const unique = [...new Set(ids)];
  const result = new Map<number, CiRunnerRow>();
  if (unique.length === 0) return result;
  const rows = await runnersByIdList.all(db, { ids: unique });
  for (const row of rows) result.set(row.id, row);
  return result;
}

export function findRunnerByToken(db: Executor, token: string): Promise<CiRunnerRow | undefined> {
  return db.selectFrom('ci_runners').selectAll().where('token', '=', token).executeTakeFirst();
}

export function insertRunner(db: Executor, row: NewCiRunner): Promise<CiRunnerRow> {
  return db.insertInto('ci_runners').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateRunner(db: Executor, id: number, changes: CiRunnerChanges): Promise<void> {
  await db.updateTable('ci_runners').set(changes).where('id', '=', id).execute();
}

/** Removes the runner; its project assignments go with it (the builds it ran keep its id). */
export async function deleteRunner(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('ci_runners').where('id', '=', id).execute();
}

export async function assignRunner(
  db: Executor,
  runnerId: number,
  projectId: number,
  at: string,
): Promise<void> {
  await db
    .insertInto('ci_runner_projects')
    .values({ runner_id: runnerId, project_id: projectId, created_at: at, updated_at: at })
    .onConflict((conflict) => conflict.columns(['runner_id', 'project_id']).doNothing())
    .execute();
}

/** The projects a runner is assigned to (a specific runner's whole world). */
export async function runnerProjectIds(db: Executor, runnerId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('ci_runner_projects')
    .select('project_id')
    .where('runner_id', '=', runnerId)
    .execute();
  return rows.map((row) => row.project_id);
}

/** GitLab's runner list scopes; `online` means a contact within the last hour. */
export type RunnerScope = 'specific' | 'shared' | 'active' | 'paused' | 'online';

export interface RunnerListFilter {
  scope?: RunnerScope;
  /** ISO time one hour ago, for `online`. */
  onlineSince: string;
}

/**
 * Projects whose runners a user manages (GitLab's ci_projects_union): projects of their personal
 * namespace, projects of groups they are a master or owner of, projects they are a master of. Expired
 * memberships count for nothing.
 */
function masteredProjectIds(db: Executor, userId: number) {
  const day = new Date().toISOString().slice(0, 10);
  const unexpired = sql<boolean>`(m.expires_at is null or m.expires_at > ${day})`;
  return db
    .selectFrom('projects as p')
    .innerJoin('namespaces as n', 'n.id', 'p.namespace_id')
    .select('p.id')
    .where('n.owner_id', '=', userId)
    .where('n.type', 'is', null)
    .union(
      db
        .selectFrom('members as m')
        .innerJoin('projects as p', 'p.namespace_id', 'm.source_id')
        .select('p.id')
        .where('m.user_id', '=', userId)
        .where('m.source_type', '=', 'Namespace')
        .where('m.access_level', '>=', 40)
        .where(unexpired),
    )
    .union(
      db
        .selectFrom('members as m')
        .select('m.source_id as id')
        .where('m.user_id', '=', userId)
        .where('m.source_type', '=', 'Project')
        .where('m.access_level', '>=', 40)
        .where(unexpired),
    );
}

/** Ids of the specific runners assigned to a project the user manages (ci_authorized_runners). */
function authorizedRunnerIds(db: Executor, userId: number) {
  return db
    .selectFrom('ci_runner_projects')
    .select('runner_id')
    .where('project_id', 'in', masteredProjectIds(db, userId));
}

/** Ids of the runners a project may use: its own and every shared one (owned_or_shared). */
function projectRunnerIds(db: Executor, projectId: number) {
  return db
    .selectFrom('ci_runners')
    .select('id')
    .where('is_shared', '=', 1)
    .union(db.selectFrom('ci_runner_projects').select('runner_id as id').where('project_id', '=', projectId));
}

export type RunnerListSource =
  { kind: 'all' } | { kind: 'user'; userId: number } | { kind: 'project'; projectId: number };

function runnersOf(db: Executor, source: RunnerListSource, filter: RunnerListFilter) {
  let query = db.selectFrom('ci_runners');
  if (source.kind === 'user') {
    query = query.where('is_shared', '=', 0).where('id', 'in', authorizedRunnerIds(db, source.userId));
  } else if (source.kind === 'project') {
    query = query.where('id', 'in', projectRunnerIds(db, source.projectId));
  }
  switch (filter.scope) {
    case 'specific':
      return query.where('is_shared', '=', 0);
    case 'shared':
      return query.where('is_shared', '=', 1);
    case 'active':
      return query.where('active', '=', 1);
    case 'paused':
      return query.where('active', '=', 0);
    case 'online':
      return query.where('contacted_at', '>', filter.onlineSince);
    default:
      return query;
  }
}

export async function countRunners(
  db: Executor,
  source: RunnerListSource,
  filter: RunnerListFilter,
): Promise<number> {
  const row = await runnersOf(db, source, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listRunners(
  db: Executor,
  source: RunnerListSource,
  filter: RunnerListFilter,
  page: { limit: number; offset: number },
): Promise<CiRunnerRow[]> {
  return runnersOf(db, source, filter)
    .selectAll()
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function findRunner(db: Executor, id: number): Promise<CiRunnerRow | undefined> {
  return db.selectFrom('ci_runners').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether the runner is a specific runner of a project the user manages (user_can_access_runner?). */
export async function isAuthorizedRunner(db: Executor, userId: number, runnerId: number): Promise<boolean> {
  const row = await db
    .selectFrom('ci_runners')
    .select('id')
    .where('id', '=', runnerId)
    .where('is_shared', '=', 0)
    .where('id', 'in', authorizedRunnerIds(db, userId))
    .executeTakeFirst();
  return row !== undefined;
}

export async function countRunnerProjects(db: Executor, runnerId: number): Promise<number> {
  const row = await db
    .selectFrom('ci_runner_projects')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('runner_id', '=', runnerId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function isRunnerAssigned(db: Executor, runnerId: number, projectId: number): Promise<boolean> {
  const row = await db
    .selectFrom('ci_runner_projects')
    .select('id')
    .where('runner_id', '=', runnerId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Assigns the runner; false when it already was assigned to the project. */
export async function assignRunnerIfAbsent(
  db: Executor,
  runnerId: number,
  projectId: number,
  at: string,
): Promise<boolean> {
  const result = await db
    .insertInto('ci_runner_projects')
    .values({ runner_id: runnerId, project_id: projectId, created_at: at, updated_at: at })
    .onConflict((conflict) => conflict.columns(['runner_id', 'project_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function unassignRunner(db: Executor, runnerId: number, projectId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('ci_runner_projects')
    .where('runner_id', '=', runnerId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Touches the runner row: on PostgreSQL the row lock it takes makes concurrent changes of the runner's
 * assignments wait for each other, so a check of how many projects it has stays true until commit.
 */
export function lockRunner(db: Executor, id: number, at: string): Promise<CiRunnerRow | undefined> {
  return db
    .updateTable('ci_runners')
    .set({ updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
