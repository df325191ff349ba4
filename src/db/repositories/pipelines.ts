// Pipelines (ci_pipelines): one per pushed commit and ref with a .gitlab-ci.yml, or per trigger call.
import type { CiPipelineRow, Executor, NewCiPipeline } from '../types.ts';
import type { CiPipelinesTable } from '../schema.ts';
import type { Updateable } from 'kysely';

export function insertPipeline(db: Executor, row: NewCiPipeline): Promise<CiPipelineRow> {
  return db.insertInto('ci_pipelines').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Holds the pipeline's row until the transaction ends, so builds of one pipeline finishing at the same
 * time settle it one after the other: on PostgreSQL each would otherwise read the other still running
 * and leave the pipeline running forever. An update that changes nothing takes the row lock there and
 * is harmless on SQLite (one writer already).
 */
export async function lockPipeline(db: Executor, id: number): Promise<void> {
  await db
    .updateTable('ci_pipelines')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', id)
    .execute();
}

export function findPipeline(db: Executor, id: number): Promise<CiPipelineRow | undefined> {
  return db.selectFrom('ci_pipelines').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updatePipeline(
  db: Executor,
  id: number,
  changes: Updateable<CiPipelinesTable>,
): Promise<CiPipelineRow> {
  return db
    .updateTable('ci_pipelines')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** How many pipelines of a commit are in each status (one indexed read on project and sha). */
export async function pipelineStatusCounts(
  db: Executor,
  projectId: number,
  sha: string,
): Promise<Array<{ status: CiPipelineRow['status']; count: number }>> {
  const rows = await db
    .selectFrom('ci_pipelines')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('project_id', '=', projectId)
    .where('sha', '=', sha)
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}
