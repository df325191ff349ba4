// merge_when_build_succeeds (GitLab 8.13's MergeWhenBuildSucceedsService): PUT …/merge with the flag while
// the MR's head pipeline is pending or running records who merges and how, and merges nothing yet. When
// that pipeline succeeds, the transaction that says so also writes the merge it now owes
// (merge_request_auto_merges), so the merge survives a crash right after; the auto-merge worker performs
// it (auto-merge.ts). A failed pipeline owes nothing and the flag stays, as in 8.13; a push to the source
// branch turns the flag off (push-refresh).
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { findLatestPipelineFor } from '../../db/repositories/pipelines.ts';
import {
  findMergeRequestsAwaitingPipeline,
  insertAutoMerge,
} from '../../db/repositories/merge-request-auto-merges.ts';
import { updateMergeRequest } from '../../db/repositories/merge-requests.ts';
import { conflict, unauthorized } from '../../errors.ts';
import { canBeMergedBy, isOpen, mergeRequestNoteTarget, type AccessibleProject } from './merge-requests.ts';
import { addSystemNoteOn } from '../issues/issue-activity.ts';
import type { CiPipelineRow, Executor, MergeRequestRow, UserRow } from '../../db/types.ts';

/** MergeRequest#pipeline: the source project's newest pipeline of the source branch at the MR's head. */
export async function headPipeline(deps: Deps, mr: MergeRequestRow): Promise<CiPipelineRow | undefined> {
  if (mr.head_sha === null || mr.source_project_id === null) return undefined;
  return findLatestPipelineFor(deps.db.kysely, mr.source_project_id, mr.source_branch, mr.head_sha);
}

/** HasStatus#active?. */
export function isActivePipeline(pipeline: CiPipelineRow | undefined): pipeline is CiPipelineRow {
  return pipeline?.status === 'pending' || pipeline?.status === 'running';
}

/**
 * Execute: the merge params join the MR's, and the first call sets the flag and the merging user (a later
 * one only updates the params). Compare-and-swap on state and head: a racing push or merge answers 409.
 */
export async function setMergeWhenBuildSucceeds(
  deps: Deps,
  viewer: UserRow,
  mr: MergeRequestRow,
  mergeParams: Record<string, unknown>,
): Promise<MergeRequestRow> {
  const enabling = Number(mr.merge_when_build_succeeds) !== 1;
  const at = now();
  const updated = await deps.db.kysely.transaction().execute(async (trx) => {
    const row = await updateMergeRequest(
      trx,
      mr.id,
      {
        merge_params: JSON.stringify(mergeParams),
        ...(enabling ? { merge_when_build_succeeds: 1, merge_user_id: viewer.id } : {}),
        updated_at: at,
      },
      { state: mr.state, head_sha: mr.head_sha },
    );
    if (row && enabling) {
      const body = `Enabled an automatic merge when the build for ${row.head_sha} succeeds`;
      await addSystemNoteOn(trx, mergeRequestNoteTarget(row), viewer, body, at);
    }
    return row;
  });
  if (!updated) throw conflict();
  return updated;
}

/**
 * MergeRequest#reset_merge_when_build_succeeds: the flag off, no merging user, and the merge's own params
 * (should_remove_source_branch, commit_message) forgotten. Undefined when the flag is off already.
 */
export function autoMergeReset(
  mr: MergeRequestRow,
): Pick<MergeRequestRow, 'merge_when_build_succeeds' | 'merge_user_id' | 'merge_params'> | undefined {
  if (Number(mr.merge_when_build_succeeds) !== 1) return undefined;
  const params = mr.merge_params ? (JSON.parse(mr.merge_params) as Record<string, unknown>) : {};
  delete params.should_remove_source_branch;
  delete params.commit_message;
  return { merge_when_build_succeeds: 0, merge_user_id: null, merge_params: JSON.stringify(params) };
}

export type CancelResult = { status: 'success' } | { message: string; status: 'error'; http_status: 406 };

/**
 * cancel: the reset above with the `Canceled the automatic merge` note, or the service's error hash when
 * there is nothing to cancel.
 */
export async function cancelMergeWhenBuildSucceeds(
  deps: Deps,
  viewer: UserRow,
  target: AccessibleProject,
  mr: MergeRequestRow,
): Promise<CancelResult> {
  // can_cancel_merge_when_build_succeeds?: whoever may merge it, or its author.
  if (viewer.id !== mr.author_id && !(await canBeMergedBy(deps, viewer, target, mr))) throw unauthorized();
  const refused: CancelResult = {
    message: "Can't cancel the automatic merge",
    status: 'error',
    http_status: 406,
  };
  const reset = autoMergeReset(mr);
  if (!reset || !isOpen(mr)) return refused;
  const at = now();
  const updated = await deps.db.kysely.transaction().execute(async (trx) => {
    const row = await updateMergeRequest(trx, mr.id, { ...reset, updated_at: at }, { state: mr.state });
    if (row)
      await addSystemNoteOn(trx, mergeRequestNoteTarget(row), viewer, 'Canceled the automatic merge', at);
    return row;
  });
  return updated ? { status: 'success' } : refused;
}

// Auto-merge workers in this process are told when a merge is owed. The call comes from inside the
// uncommitted transaction of the pipeline's success, hence the worker's short delay and second look.
const owedListeners = new Set<() => void>();

export function onAutoMergeOwed(listener: () => void): () => void {
  owedListeners.add(listener);
  return () => owedListeners.delete(listener);
}

/**
 * In the transaction that moved `pipeline` to success (PipelineSuccessWorker → trigger): every open MR
 * waiting with the flag whose head pipeline this is now owes a merge. One indexed read when none waits.
 */
export async function oweMergesForPipeline(
  trx: Executor,
  pipeline: CiPipelineRow,
  at: string,
): Promise<number> {
  if (pipeline.status !== 'success' || Number(pipeline.tag) === 1) return 0;
  const waiting = await findMergeRequestsAwaitingPipeline(
    trx,
    pipeline.project_id,
    pipeline.ref,
    pipeline.sha,
  );
  if (waiting.length === 0) return 0;
  // Only the MR's head pipeline counts: an older pipeline of the same commit succeeding does not merge.
  const latest = await findLatestPipelineFor(trx, pipeline.project_id, pipeline.ref, pipeline.sha);
  if (latest?.id !== pipeline.id) return 0;
  for (const mr of waiting) await insertAutoMerge(trx, mr.id, pipeline.id, at);
  for (const listener of owedListeners) listener();
  return waiting.length;
}
