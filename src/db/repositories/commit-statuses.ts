// Commit statuses: every row of ci_builds on a commit's pipelines, builds and the statuses other CI
// systems report (type 'external') alike. "Latest" is the highest id per name within a pipeline.
import type { CiBuildRow, Executor, NewCiBuild } from '../types.ts';

export interface CommitStatusFilter {
  projectId: number;
  sha: string;
  ref?: string;
  stage?: string;
  name?: string;
  /** Retried rows too, not only the newest per name. */
  all: boolean;
}

function statusesOf(db: Executor, filter: CommitStatusFilter) {
  // The commit's pipelines by the (project_id, sha, id) index, then their rows by (pipeline_id, id).
  const pipelines = db
    .selectFrom('ci_pipelines')
    .select('id')
    .where('project_id', '=', filter.projectId)
    .where('sha', '=', filter.sha);
  let query = db.selectFrom('ci_builds').where('pipeline_id', 'in', pipelines);
  if (!filter.all) {
    const latest = db
      .selectFrom('ci_builds')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('pipeline_id', 'in', pipelines)
      .groupBy(['pipeline_id', 'name']);
    query = query.where('id', 'in', latest);
  }
  if (filter.ref !== undefined) query = query.where('ref', '=', filter.ref);
  if (filter.stage !== undefined) query = query.where('stage', '=', filter.stage);
  if (filter.name !== undefined) query = query.where('name', '=', filter.name);
  return query;
}

export async function countCommitStatuses(db: Executor, filter: CommitStatusFilter): Promise<number> {
  const row = await statusesOf(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listCommitStatuses(
  db: Executor,
  filter: CommitStatusFilter,
  page: { limit: number; offset: number },
): Promise<CiBuildRow[]> {
  return statusesOf(db, filter).selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute();
}

/** The caller's still pending or running external status of that name and ref in the pipeline. */
export function findOpenExternalStatus(
  db: Executor,
  pipelineId: number,
  userId: number,
  name: string,
  ref: string,
): Promise<CiBuildRow | undefined> {
  return db
    .selectFrom('ci_builds')
    .selectAll()
    .where('pipeline_id', '=', pipelineId)
    .where('type', '=', 'external')
    .where('name', '=', name)
    .where('user_id', '=', userId)
    .where('ref', '=', ref)
    .where('status', 'in', ['pending', 'running'])
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export function insertCommitStatus(db: Executor, row: NewCiBuild): Promise<CiBuildRow> {
  return db.insertInto('ci_builds').values(row).returningAll().executeTakeFirstOrThrow();
}
