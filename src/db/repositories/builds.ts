// Builds and external commit statuses (ci_builds). "Latest" means the highest id per name within a
// pipeline: a retry adds a row and the old one stays.
import type { Updateable } from 'kysely';
import type { CiBuildsTable } from '../schema.ts';
import type { CiBuildRow, CiBuildType, Executor, NewCiBuild } from '../types.ts';
import type { CiStatus, CiWhen } from '../../domain/types.ts';

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
  status: 'pending' | 'skipped',
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

export async function updateBuild(
  db: Executor,
  id: number,
  changes: Updateable<CiBuildsTable>,
): Promise<void> {
  await db.updateTable('ci_builds').set(changes).where('id', '=', id).execute();
}
