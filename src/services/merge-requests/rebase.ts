// PUT …/merge_requests/:iid/rebase (today's MergeRequests::RebaseService): the source branch's own
// commits are replayed on the target branch's head without a work tree (git/rebase.ts), and the source
// branch moves to the result as a push by the caller would (compare-and-swap; push rules, events, hooks
// and pipelines as for any push, none of the pipelines with skip_ci). Who may push to the source branch
// may rebase (403 otherwise). A conflict, a refused push or a branch that moved meanwhile leaves the
// branch as it was and the reason in merge_error; success clears it. The rebase is done when the
// request answers, so `rebase_in_progress` is false by then; a second rebase of the MR while one runs
// answers 409.
import type { Deps } from '../../deps.ts';
import { LockScope } from '../../db/session-locks.ts';
import { findMergeRequestById, updateMergeRequest } from '../../db/repositories/merge-requests.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { resolveRefs } from '../../git/refs.ts';
import { fetchBranchInto } from '../../git/merges.ts';
import { rebaseCommits } from '../../git/rebase.ts';
import { compareAndSwapRef } from '../../git/ref-writes.ts';
import { BLANK_SHA } from '../../domain/types.ts';
import { projectAccess } from '../../policies/access.ts';
import { ApiError, apiError, forbidden } from '../../errors.ts';
import { updateRefAsPush } from '../push/ref-updates.ts';
import { mayPushToBranch, userSignature, type Pusher } from '../push/push-setup.ts';
import { isOpen, type AccessibleProject } from './merge-requests.ts';
import type { MergeRequestRow, UserRow } from '../../db/types.ts';

/** merge_error of a rebase that conflicts (GitLab's words). */
const REBASE_FAILED = 'Rebase failed. Please rebase locally';
const LOST = 'Rebase failed: the source branch moved during the rebase';

export async function rebaseMergeRequest(
  deps: Deps,
  viewer: UserRow,
  target: AccessibleProject,
  mr: MergeRequestRow,
  options: { skipCi: boolean },
): Promise<MergeRequestRow> {
  const db = deps.db.kysely;
  const sourceRecord =
    mr.source_project_id === null
      ? undefined
      : mr.source_project_id === target.project.id
        ? target
        : await findProjectRecordById(db, mr.source_project_id);
  const source: Pusher | undefined = sourceRecord && {
    ...sourceRecord,
    access: await projectAccess(db, viewer, sourceRecord),
    user: viewer,
  };
  // authorize_push_to_merge_request!
  if (!source || !(await mayPushToBranch(deps, source, mr.source_branch))) {
    throw forbidden('Cannot push to source branch');
  }
  if (!isOpen(mr)) throw apiError(405, '405 Method Not Allowed');
  if (!(await deps.db.locks.tryAcquire(LockScope.MergeRequestRebase, mr.id))) {
    throw apiError(
      409,
      'Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later.',
    );
  }
  try {
    const error = await rebaseLocked(deps, source, target, mr, options);
    await updateMergeRequest(db, mr.id, { merge_error: error });
    return (await findMergeRequestById(db, mr.id)) ?? mr;
  } finally {
    await deps.db.locks.release(LockScope.MergeRequestRebase, mr.id);
  }
}

/** The rebase itself; null when the branch is rebased (or already was), else the merge_error. */
async function rebaseLocked(
  deps: Deps,
  source: Pusher,
  target: AccessibleProject,
  mr: MergeRequestRow,
  options: { skipCi: boolean },
): Promise<string | null> {
  const sourceRepo = projectRepositoryPath(deps.config.dataDir, source);
  const sourceRef = `refs/heads/${mr.source_branch}`;
  const head = (await resolveRefs(sourceRepo, [sourceRef])).get(sourceRef);
  if (!head) return `${REBASE_FAILED}: the source branch is gone`;
  // A fork's rebase needs the target's head among its own objects, under a ref of its own meanwhile.
  const forked = source.project.id !== target.project.id;
  const ontoRef = forked ? `refs/merge-requests/rebase-onto/${mr.id}` : `refs/heads/${mr.target_branch}`;
  const onto = forked
    ? await fetchBranchInto(
        sourceRepo,
        projectRepositoryPath(deps.config.dataDir, target),
        mr.target_branch,
        ontoRef,
      )
    : (await resolveRefs(sourceRepo, [ontoRef])).get(ontoRef);
  try {
    if (!onto) return `${REBASE_FAILED}: the target branch is gone`;
    const rebased = await rebaseCommits(sourceRepo, onto, head, userSignature(source));
    if (!rebased.clean) return REBASE_FAILED;
    if (rebased.head === head) return null;
    try {
      await updateRefAsPush(
        deps,
        source,
        { before: head, after: rebased.head, ref: sourceRef },
        LOST,
        false,
        options.skipCi,
      );
      return null;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return `${REBASE_FAILED}: ${String(error.body?.message ?? 'the push was refused')}`;
    }
  } finally {
    if (forked && onto) await compareAndSwapRef(sourceRepo, ontoRef, onto, BLANK_SHA);
  }
}
