// Merges owed to merge_when_build_succeeds (migration 045): written in the transaction that moves an MR's
// head pipeline to success, read and deleted by the auto-merge worker.
import type { Executor, MergeRequestAutoMergeRow, MergeRequestRow } from '../types.ts';
import { OPEN_STATES } from './merge-requests.ts';

/**
 * Open MRs from this branch of this project, at this head, waiting for their pipeline to merge them
 * (on the merge_requests_source index).
 */
export function findMergeRequestsAwaitingPipeline(
  db: Executor,
  sourceProjectId: number,
  sourceBranch: string,
  headSha: string,
): Promise<MergeRequestRow[]> {
  return db
    .selectFrom('merge_requests')
    .selectAll()
    .where('source_project_id', '=', sourceProjectId)
    .where('source_branch', '=', sourceBranch)
    .where('state', 'in', OPEN_STATES)
    .where('head_sha', '=', headSha)
    .where('merge_when_build_succeeds', '=', 1)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Owes the MR a merge for this pipeline (a row already owed keeps its place, with the newer pipeline). */
export async function insertAutoMerge(
  db: Executor,
  mergeRequestId: number,
  pipelineId: number,
  at: string,
): Promise<void> {
  await db
    .insertInto('merge_request_auto_merges')
    .values({ merge_request_id: mergeRequestId, pipeline_id: pipelineId, created_at: at })
    .onConflict((oc) => oc.column('merge_request_id').doUpdateSet({ pipeline_id: pipelineId }))
    .execute();
}

/** The oldest owed merges after `afterId`. */
export function listAutoMerges(
  db: Executor,
  afterId: number,
  limit: number,
): Promise<MergeRequestAutoMergeRow[]> {
  return db
    .selectFrom('merge_request_auto_merges')
    .selectAll()
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Done with this owed merge (only this row: a newer pipeline's success may have replaced it). */
export async function deleteAutoMerge(db: Executor, row: MergeRequestAutoMergeRow): Promise<void> {
  await db
    .deleteFrom('merge_request_auto_merges')
    .where('id', '=', row.id)
    .where('pipeline_id', '=', row.pipeline_id)
    .execute();
}
