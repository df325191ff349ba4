// Builds and external commit statuses (ci_builds). "Latest" means the highest id per name within a
// pipeline: a retry adds a row and the old one stays.
import { sql, type ExpressionBuilder, type Updateable } from 'kysely';
import type { Database } from '../schema.ts';
import type { CiBuildsTable } from '../schema.ts';
import type { CiBuildRow, CiBuildType, Executor, NewCiBuild } from '../types.ts';
import type { CiStatus, CiWhen } from '../../domain/types.ts';
import { newestIdsPage } from './newest-ids.ts';
import { prepared } from '../prepared.ts';

// Rows per INSERT: ~30 columns each stays far below SQLite's 32,766 bound parameters.
const INSERT_CHUNK = 200;

export async function insertBuilds(db: Executor, rows: NewCiBuild[]): Promise<CiBuildRow[]> {
  const inserted: CiBuildRow[] = [];
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const chunk = rows.slice(start, start + INSERT_CHUNK);
    inserted.push(...(await db.insertInto('ci_builds').values(chunk).returningAll().execute()));
  }
  return inserted.sort((a, b) => a.id - b.id);
}

/** A runner's builds by id (ci_builds_runner, ci_builds_runner_status). */
function runnerBuilds(db: Executor, runnerId: number, status: CiStatus | undefined) {
  let query = db.selectFrom('ci_builds').where('runner_id', '=', runnerId);
  if (status !== undefined) query = query.where('status', '=', status);
  return query;
}

export function listRunnerBuilds(
  db: Executor,
  runnerId: number,
  status: CiStatus | undefined,
  sort: 'asc' | 'desc',
  limit: number,
  offset: number,
): Promise<CiBuildRow[]> {
  return runnerBuilds(db, runnerId, status)
    .selectAll()
    .orderBy('id', sort)
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countRunnerBuildsUpTo(
  db: Executor,
  runnerId: number,
  status: CiStatus | undefined,
  cap: number,
): Promise<number> {
  const row = await db
    .selectFrom(runnerBuilds(db, runnerId, status).select('id').limit(cap).as('capped'))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function findBuild(db: Executor, id: number): Promise<CiBuildRow | undefined> {
  return db.selectFrom('ci_builds').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every row of a pipeline, oldest first (hook payloads list them all, retried ones included). */
export function pipelineRows(db: Executor, pipelineId: number): Promise<CiBuildRow[]> {
  return db.selectFrom('ci_builds').selectAll().where('pipeline_id', '=', pipelineId).orderBy('id').execute();
}

function latestIds(db: Executor, pipelineId: number) {
  return db
    .selectFrom('ci_builds')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('pipeline_id', '=', pipelineId)
    .groupBy('name');
}

export interface StatusGroupRow {
  type: CiBuildType;
  stage_idx: number | null;
  status: CiStatus;
  allow_failure: number;
  when: CiWhen;
  count: number;
}

/** The newest row per name of a pipeline, counted by what stage gating and status computation need. */
export function latestStatusGroups(db: Executor, pipelineId: number): Promise<StatusGroupRow[]> {
  return db
    .selectFrom('ci_builds')
    .select(['type', 'stage_idx', 'status', 'allow_failure', 'when'])
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('id', 'in', latestIds(db, pipelineId))
    .groupBy(['type', 'stage_idx', 'status', 'allow_failure', 'when'])
    .execute() as Promise<StatusGroupRow[]>;
}

/** Stage gating's bulk step: the created builds of one stage and `when` become pending or skipped. */
export async function moveCreatedBuilds(
  db: Executor,
  pipelineId: number,
  stageIdx: number,
  when: CiWhen,
  status: 'pending' | 'skipped' | 'scheduled',
  at: string,
): Promise<number> {
  const result = await db
    .updateTable('ci_builds')
    .set(status === 'pending' ? { status, queued_at: at, updated_at: at } : { status, updated_at: at })
    .where('pipeline_id', '=', pipelineId)
    .where('type', '=', 'build')
    .where('stage_idx', '=', stageIdx)
    .where('when', '=', when)
    .where('status', '=', 'created')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type ProcessingRow = Pick<
  CiBuildRow,
  'id' | 'name' | 'stage_idx' | 'status' | 'allow_failure' | 'when' | 'options'
>;

/** The newest build per name of a pipeline with its options (a pipeline with `needs:` is processed per build). */
export function latestBuildsForProcessing(db: Executor, pipelineId: number): Promise<ProcessingRow[]> {
  return db
    .selectFrom('ci_builds')
    .select(['id', 'name', 'stage_idx', 'status', 'allow_failure', 'when', 'options'])
    .where('id', 'in', latestIds(db, pipelineId))
    .where('type', '=', 'build')
    .orderBy('id')
    .execute();
}

/** Scheduled builds of a pipeline still without their time (just moved there). */
export function unscheduledBuilds(
  db: Executor,
  pipelineId: number,
): Promise<Array<Pick<CiBuildRow, 'id' | 'options'>>> {
  return db
    .selectFrom('ci_builds')
    .select(['id', 'options'])
    .where('pipeline_id', '=', pipelineId)
    .where('status', '=', 'scheduled')
    .where('scheduled_at', 'is', null)
    .execute();
}

/** Scheduled builds whose time has come by `at`, soonest first (on the scheduled builds' index). */
export function dueScheduledBuilds(db: Executor, at: string, limit: number): Promise<Array<{ id: number }>> {
  return db
    .selectFrom('ci_builds')
    .select('id')
    .where('status', '=', 'scheduled')
    .where('scheduled_at', '<=', at)
    .orderBy('scheduled_at')
    .limit(limit)
    .execute();
}

/** Moves the given builds that are still created (processing of a pipeline with `needs:`). */
export async function moveCreatedBuildsById(
  db: Executor,
  ids: number[],
  status: 'pending' | 'skipped' | 'scheduled',
  at: string,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('ci_builds')
    .set(status === 'pending' ? { status, queued_at: at, updated_at: at } : { status, updated_at: at })
    .where('id', 'in', ids)
    .where('status', '=', 'created')
    .execute();
}

/** Start and end of the pipeline's newest builds that ran (for its duration). */
export function runPeriods(
  db: Executor,
  pipelineId: number,
): Promise<Array<{ started_at: string; finished_at: string | null }>> {
  return db
    .selectFrom('ci_builds')
    .select(['started_at', 'finished_at'])
    .where('id', 'in', latestIds(db, pipelineId))
    .where('type', '=', 'build')
    .where('status', 'in', ['success', 'failed', 'running', 'canceled'])
    .where('started_at', 'is not', null)
    .execute() as Promise<Array<{ started_at: string; finished_at: string | null }>>;
}

/**
 * Moves one build if it is still in one of `from`: the guard makes a lost race (another process
 * moved it first) an undefined result instead of a second transition.
 */
export function transitionBuild(
  db: Executor,
  id: number,
  from: readonly CiStatus[],
  changes: Updateable<CiBuildsTable>,
): Promise<CiBuildRow | undefined> {
  return db
    .updateTable('ci_builds')
    .set(changes)
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .returningAll()
    .executeTakeFirst();
}

export function findBuildByToken(db: Executor, token: string): Promise<CiBuildRow | undefined> {
  return db.selectFrom('ci_builds').selectAll().where('token', '=', token).executeTakeFirst();
}

/** The newest build of each job in the stages before `stageIdx` (what a job may take artifacts from). */
export function dependencyBuilds(db: Executor, pipelineId: number, stageIdx: number): Promise<CiBuildRow[]> {
  return db
    .selectFrom('ci_builds')
    .selectAll()
    .where('id', 'in', latestIds(db, pipelineId))
    .where('type', '=', 'build')
    .where('stage_idx', '<', stageIdx)
    .orderBy('id')
    .execute();
}

/** The newest build of each named job (a job with `needs:` takes artifacts from these only). */
export function namedDependencyBuilds(
  db: Executor,
  pipelineId: number,
  names: string[],
): Promise<CiBuildRow[]> {
  if (names.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('ci_builds')
    .selectAll()
    .where('id', 'in', latestIds(db, pipelineId))
    .where('type', '=', 'build')
    .where('name', 'in', names)
    .orderBy('id')
    .execute();
}

export async function updateBuild(
  db: Executor,
  id: number,
  changes: Updateable<CiBuildsTable>,
): Promise<void> {
  await db.updateTable('ci_builds').set(changes).where('id', '=', id).execute();
}

/** A build (not an external status) of the project, or undefined. */
export function findProjectBuild(
  db: Executor,
  projectId: number,
  id: number,
): Promise<CiBuildRow | undefined> {
  return db
    .selectFrom('ci_builds')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('type', '=', 'build')
    .executeTakeFirst();
}

/** Which builds a list shows: a project's, optionally only some statuses or some pipelines'. */
export interface BuildListFilter {
  projectId: number;
  /** Undefined or empty: every status. */
  statuses?: readonly CiStatus[];
  /** The pipelines of one commit (few); undefined: every pipeline. */
  pipelineIds?: readonly number[];
  /** With pipelineIds: only the newest build of each job name (a retried one is left out). */
  latestOnly?: boolean;
}

/**
 * The list's conditions. A commit's builds are found through its pipelines, on (pipeline_id, id); a
 * project's on (project_id, type[, status], id).
 */
function buildConditions(filter: BuildListFilter, statuses: readonly CiStatus[]) {
  return (eb: ExpressionBuilder<Database, 'ci_builds'>) => {
    const conditions = [
      filter.pipelineIds
        ? eb('pipeline_id', 'in', [...filter.pipelineIds])
        : eb('project_id', '=', filter.projectId),
      eb('type', '=', 'build'),
    ];
    if (filter.pipelineIds && filter.latestOnly) {
      const newest = eb
        .selectFrom('ci_builds')
        .select((inner) => inner.fn.max('id').as('id'))
        .where('pipeline_id', 'in', [...filter.pipelineIds])
        .groupBy(['pipeline_id', 'name']);
      conditions.push(eb('id', 'in', newest));
    }
    if (statuses.length === 1) conditions.push(eb('status', '=', statuses[0]!));
    else if (statuses.length > 1) conditions.push(eb('status', 'in', [...statuses]));
    return eb.and(conditions);
  };
}

function buildIds(db: Executor, filter: BuildListFilter, status: CiStatus | undefined) {
  return db
    .selectFrom('ci_builds')
    .select('id')
    .where(buildConditions(filter, status === undefined ? [] : [status]));
}

/** Every column, named: a prepared shape keeps its result shape when a migration adds a column. */
const BUILD_COLUMNS = [
  'id',
  'project_id',
  'pipeline_id',
  'type',
  'name',
  'stage',
  'stage_idx',
  'status',
  'ref',
  'tag',
  'commands',
  'options',
  'yaml_variables',
  'tag_list',
  'allow_failure',
  'when',
  'environment',
  'coverage',
  'token',
  'runner_id',
  'user_id',
  'trigger_request_id',
  'erased_by_id',
  'erased_at',
  'artifacts_file',
  'artifacts_size',
  'artifacts_metadata',
  'artifacts_expire_at',
  'description',
  'target_url',
  'queued_at',
  'started_at',
  'finished_at',
  'failure_reason',
  'exit_code',
  'timeout_at',
  'scheduled_at',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof CiBuildRow>;

/** The list every project's builds page shows first (no status or commit filter), prepared once. */
const projectBuildsPage = prepared<{ projectId: number; limit: number; offset: number }>()((db, slot) =>
  db
    .selectFrom('ci_builds')
    .select(BUILD_COLUMNS)
    .where(
      'id',
      'in',
      buildIds(db, { projectId: slot('projectId') }, undefined)
        .orderBy('id', 'desc')
        .limit(slot('limit'))
        .offset(slot('offset')),
    )
    .orderBy('id', 'desc'),
);

export function listBuilds(
  db: Executor,
  filter: BuildListFilter,
  limit: number,
  offset: number,
): Promise<CiBuildRow[]> {
  if (!filter.pipelineIds && (!filter.statuses || filter.statuses.length === 0)) {
    return projectBuildsPage.all(db, { projectId: filter.projectId, limit, offset });
  }
  return db
    .selectFrom('ci_builds')
    .selectAll()
    .where(
      'id',
      'in',
      newestIdsPage(
        db,
        filter.statuses,
        (status, n) => buildIds(db, filter, status).orderBy('id', 'desc').limit(n),
        limit,
        offset,
      ),
    )
    .orderBy('id', 'desc')
    .execute();
}

/** How many builds the list has, counting no further than `cap` (a bounded walk of the index). */
export async function countBuildsUpTo(db: Executor, filter: BuildListFilter, cap: number): Promise<number> {
  const query = db
    .selectFrom('ci_builds')
    .select(sql<number>`1`.as('one'))
    .where(buildConditions(filter, filter.statuses ?? []));
  const row = await db
    .selectFrom(query.limit(cap).as('capped'))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** How many builds named `name` the pipeline has (each retry adds one). */
export async function countBuildsNamed(db: Executor, pipelineId: number, name: string): Promise<number> {
  const row = await db
    .selectFrom('ci_builds')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('pipeline_id', '=', pipelineId)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The newest build named `name` in the pipeline (retries add rows; the newest counts). */
export function latestBuildNamed(
  db: Executor,
  pipelineId: number,
  name: string,
): Promise<CiBuildRow | undefined> {
  return db
    .selectFrom('ci_builds')
    .selectAll()
    .where('pipeline_id', '=', pipelineId)
    .where('type', '=', 'build')
    .where('name', '=', name)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Skipped builds of the stages after `stageIdx` go back to created, to be decided again after a retry. */
export async function reopenSkippedAfterStage(
  db: Executor,
  pipelineId: number,
  stageIdx: number,
  at: string,
): Promise<void> {
  await db
    .updateTable('ci_builds')
    .set({ status: 'created', updated_at: at })
    .where('pipeline_id', '=', pipelineId)
    .where('type', '=', 'build')
    .where('stage_idx', '>', stageIdx)
    .where('status', '=', 'skipped')
    .execute();
}

/** The newest build per name of a pipeline in one of `statuses` (pipeline retry and cancel). */
export function latestBuildsIn(
  db: Executor,
  pipelineId: number,
  statuses: readonly CiStatus[],
): Promise<CiBuildRow[]> {
  return db
    .selectFrom('ci_builds')
    .selectAll()
    .where('id', 'in', latestIds(db, pipelineId))
    .where('type', '=', 'build')
    .where('status', 'in', [...statuses])
    .orderBy('id')
    .execute();
}

/**
 * Builds whose artifacts expired before `at`, oldest expiry first: a walk of the partial index on
 * artifacts_expire_at, never of the table.
 */
export function expiredArtifactBuilds(db: Executor, at: string, limit: number): Promise<CiBuildRow[]> {
  return db
    .selectFrom('ci_builds')
    .selectAll()
    .where('artifacts_expire_at', 'is not', null)
    .where('artifacts_expire_at', '<', at)
    .orderBy('artifacts_expire_at')
    .limit(limit)
    .execute();
}

/** Forgets a build's artifacts if they are still expired at `at`; false when they were kept meanwhile. */
export async function clearExpiredArtifacts(db: Executor, id: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('ci_builds')
    .set({
      artifacts_file: null,
      artifacts_size: null,
      artifacts_metadata: null,
      artifacts_expire_at: null,
      updated_at: at,
    })
    .where('id', '=', id)
    .where('artifacts_expire_at', '<', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The newest row per name (builds and external statuses) of each of these pipelines, in one read on
 * (pipeline_id, id): what the pipelines pages draw their stages from.
 */
export function latestBuildsOfPipelines(db: Executor, pipelineIds: readonly number[]): Promise<CiBuildRow[]> {
  if (pipelineIds.length === 0) return Promise.resolve([]);
  const newest = db
    .selectFrom('ci_builds')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('pipeline_id', 'in', [...pipelineIds])
    .groupBy(['pipeline_id', 'name']);
  return db
    .selectFrom('ci_builds')
    .selectAll()
    .where('id', 'in', newest)
    .orderBy('pipeline_id')
    .orderBy('stage_idx')
    .orderBy('id')
    .execute();
}
