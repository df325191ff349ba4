// Pipelines (ci_pipelines): one per pushed commit and ref with a .gitlab-ci.yml, or per trigger call.
import type { CiPipelineRow, Executor, NewCiPipeline } from '../types.ts';
import type { CiPipelinesTable } from '../schema.ts';
import type { Updateable } from 'kysely';
import type { CiStatus } from '../../domain/types.ts';

export function insertPipeline(db: Executor, row: NewCiPipeline): Promise<CiPipelineRow> {
  return db.insertInto('ci_pipelines').values(row).returningAll().executeTakeFirstOrThrow();
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

export function findProjectPipeline(
  db: Executor,
  projectId: number,
  id: number,
): Promise<CiPipelineRow | undefined> {
  return db
    .selectFrom('ci_pipelines')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

export async function pipelinesByIds(db: Executor, ids: number[]): Promise<Map<number, CiPipelineRow>> {
  const unique = [...new Set(ids)];
  const result = new Map<number, CiPipelineRow>();
  if (unique.length === 0) return result;
  const rows = await db.selectFrom('ci_pipelines').selectAll().where('id', 'in', unique).execute();
  for (const row of rows) result.set(row.id, row);
  return result;
}

/** The pipelines of one commit (on the project and sha index). */
export async function pipelineIdsForSha(db: Executor, projectId: number, sha: string): Promise<number[]> {
  const rows = await db
    .selectFrom('ci_pipelines')
    .select('id')
    .where('project_id', '=', projectId)
    .where('sha', '=', sha)
    .execute();
  return rows.map((row) => row.id);
}

/** The newest successful pipeline of a ref (GitLab's latest_successful_for). */
export function latestSuccessfulPipeline(
  db: Executor,
  projectId: number,
  ref: string,
): Promise<CiPipelineRow | undefined> {
  return db
    .selectFrom('ci_pipelines')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('ref', '=', ref)
    .where('status', '=', 'success')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Which pipelines a list shows. */
export interface PipelineListFilter {
  projectId: number;
  /** Undefined or empty: every status. */
  statuses?: readonly CiStatus[];
  /** Only the newest pipeline of each of these refs (the `branches` and `tags` scopes). */
  newestOfRefs?: readonly string[];
}

function pipelineIds(db: Executor, filter: PipelineListFilter, status: CiStatus | undefined) {
  let query = db.selectFrom('ci_pipelines').select('id').where('project_id', '=', filter.projectId);
  if (status !== undefined) query = query.where('status', '=', status);
  if (filter.newestOfRefs) {
    // One max per ref on (project_id, ref, id).
    const newest = db
      .selectFrom('ci_pipelines')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('project_id', '=', filter.projectId)
      .where('ref', 'in', filter.newestOfRefs.length > 0 ? [...filter.newestOfRefs] : [''])
      .groupBy('ref');
    query = query.where('id', 'in', newest);
  }
  return query;
}

/** A page's ids newest first on an index (deferred join); several statuses are walked one by one. */
function pipelinePageIds(db: Executor, filter: PipelineListFilter, limit: number, offset: number) {
  const statuses =
    filter.statuses && filter.statuses.length > 0 ? [...new Set(filter.statuses)] : [undefined];
  if (statuses.length === 1) {
    return pipelineIds(db, filter, statuses[0]).orderBy('id', 'desc').limit(limit).offset(offset);
  }
  const walks = statuses.map((status, index) =>
    db
      .selectFrom(
        pipelineIds(db, filter, status)
          .orderBy('id', 'desc')
          .limit(offset + limit)
          .as(`s${index}`),
      )
      .select('id'),
  );
  let merged = walks[0]!;
  for (const walk of walks.slice(1)) merged = merged.unionAll(walk);
  return merged.orderBy('id', 'desc').limit(limit).offset(offset);
}

export function listPipelines(
  db: Executor,
  filter: PipelineListFilter,
  limit: number,
  offset: number,
): Promise<CiPipelineRow[]> {
  return db
    .selectFrom('ci_pipelines')
    .selectAll()
    .where('id', 'in', pipelinePageIds(db, filter, limit, offset))
    .orderBy('id', 'desc')
    .execute();
}

/** How many pipelines the list has, counting no further than `cap`. */
export async function countPipelinesUpTo(
  db: Executor,
  filter: PipelineListFilter,
  cap: number,
): Promise<number> {
  let query = pipelineIds(db, filter, undefined);
  if (filter.statuses && filter.statuses.length > 0)
    query = query.where('status', 'in', [...filter.statuses]);
  const row = await db
    .selectFrom(query.limit(cap).as('capped'))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
