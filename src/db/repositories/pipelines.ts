// Pipelines (ci_pipelines): one per pushed commit and ref with a .gitlab-ci.yml, or per trigger call.
import type { CiPipelineRow, Executor, NewCiPipeline } from '../types.ts';
import type { CiPipelinesTable } from '../schema.ts';
import type { Updateable } from 'kysely';
import type { CiStatus, PipelineSource } from '../../domain/types.ts';
import { newestIdsPage } from './newest-ids.ts';
import { inList, prepared } from '../prepared.ts';

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

/** Every column, named: a prepared shape keeps its result shape when a migration adds a column. */
const PIPELINE_COLUMNS = [
  'id',
  'project_id',
  'ref',
  'sha',
  'before_sha',
  'tag',
  'status',
  'yaml_errors',
  'user_id',
  'commit_message',
  'commit_author_name',
  'commit_author_email',
  'commit_committed_date',
  'committed_at',
  'started_at',
  'finished_at',
  'duration',
  'source',
  'pipeline_schedule_id',
  'merge_request_id',
  'merge_request_variables',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof CiPipelineRow>;

const pipelinesOf = prepared<{ ids: number[] }>()((db, slot) =>
  db
    .selectFrom('ci_pipelines')
    .select(PIPELINE_COLUMNS)
    .where(() => inList(db, 'id', slot('ids'))),
);

export async function pipelinesByIds(db: Executor, ids: number[]): Promise<Map<number, CiPipelineRow>> {
  const unique = [...new Set(ids)];
  const result = new Map<number, CiPipelineRow>();
  if (unique.length === 0) return result;
  const rows = await pipelinesOf.all(db, { ids: unique });
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
  /** v4's filters, each on an index led by project_id. */
  ref?: string;
  sha?: string;
  source?: PipelineSource;
  userId?: number;
  /** v4's order_by and sort; newest id first when not given. */
  order?: PipelineOrder;
}

export interface PipelineOrder {
  by: 'id' | 'status' | 'ref' | 'updated_at' | 'user_id';
  sort: 'asc' | 'desc';
}

function pipelineIds(db: Executor, filter: PipelineListFilter, status: CiStatus | undefined) {
  let query = db.selectFrom('ci_pipelines').select('id').where('project_id', '=', filter.projectId);
  if (status !== undefined) query = query.where('status', '=', status);
  if (filter.ref !== undefined) query = query.where('ref', '=', filter.ref);
  if (filter.sha !== undefined) query = query.where('sha', '=', filter.sha);
  if (filter.source !== undefined) query = query.where('source', '=', filter.source);
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
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

export function listPipelines(
  db: Executor,
  filter: PipelineListFilter,
  limit: number,
  offset: number,
): Promise<CiPipelineRow[]> {
  const order = filter.order;
  if (order && !(order.by === 'id' && order.sort === 'desc')) {
    // Another order walks (project_id, <column>, id) — status, ref, user_id (migrations 010, 087) and
    // updated_at (137) — for the ids of the page, then reads those rows.
    let ids = pipelineIds(db, filter, undefined);
    if (filter.statuses && filter.statuses.length > 0) ids = ids.where('status', 'in', [...filter.statuses]);
    if (order.by !== 'id') ids = ids.orderBy(order.by, order.sort);
    const page = ids.orderBy('id', order.sort).limit(limit).offset(offset);
    let rows = db.selectFrom('ci_pipelines').selectAll().where('id', 'in', page);
    if (order.by !== 'id') rows = rows.orderBy(order.by, order.sort);
    return rows.orderBy('id', order.sort).execute();
  }
  return db
    .selectFrom('ci_pipelines')
    .selectAll()
    .where(
      'id',
      'in',
      newestIdsPage(
        db,
        filter.statuses,
        (status, n) => pipelineIds(db, filter, status).orderBy('id', 'desc').limit(n),
        limit,
        offset,
      ),
    )
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

/** How many builds and pipelines the project has (kept by triggers; zero before its first pipeline). */
const listCountsOf = prepared<{ projectId: number }>()((db, slot) =>
  db.selectFrom('ci_list_counts').select(['builds', 'pipelines']).where('project_id', '=', slot('projectId')),
);

export async function projectListCounts(
  db: Executor,
  projectId: number,
): Promise<{ builds: number; pipelines: number }> {
  const row = await listCountsOf.first(db, { projectId });
  return { builds: Number(row?.builds ?? 0), pipelines: Number(row?.pipelines ?? 0) };
}

/**
 * GitLab's pipeline_for(ref, sha): the newest pipeline of this ref at this commit (on the sha index); of
 * any ref when `ref` is null (a commit's last_pipeline).
 */
export function findLatestPipelineFor(
  db: Executor,
  projectId: number,
  ref: string | null,
  sha: string,
): Promise<CiPipelineRow | undefined> {
  return db
    .selectFrom('ci_pipelines')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('sha', '=', sha)
    .$if(ref !== null, (query) => query.where('ref', '=', ref!))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** How many builds the instance has: the kept per-project counts summed (one row per project with CI). */
export async function countAllBuilds(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('ci_list_counts')
    .select((eb) => eb.fn.sum<number | string | null>('builds').as('builds'))
    .executeTakeFirst();
  return Number(row?.builds ?? 0);
}

/** Deletes a pipeline; its builds, trigger requests and auto-merge waits cascade. */
export async function removePipeline(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('ci_pipelines').where('id', '=', id).execute();
}

/**
 * The pipelines of `ref` at any of these commits (on the sha index) and the merge request pipelines of
 * `mergeRequestId` (on theirs), newest first: a merge request's.
 */
export async function pipelinesOfRefAtShas(
  db: Executor,
  projectId: number,
  ref: string,
  shas: string[],
  mergeRequestId?: number,
): Promise<CiPipelineRow[]> {
  const [branch, detached] = await Promise.all([
    shas.length === 0
      ? []
      : db
          .selectFrom('ci_pipelines')
          .selectAll()
          .where('project_id', '=', projectId)
          .where('sha', 'in', shas)
          .where('ref', '=', ref)
          .execute(),
    mergeRequestId === undefined
      ? []
      : db.selectFrom('ci_pipelines').selectAll().where('merge_request_id', '=', mergeRequestId).execute(),
  ]);
  const byId = new Map([...branch, ...detached].map((row) => [row.id, row]));
  return [...byId.values()].sort((a, b) => b.id - a.id);
}
