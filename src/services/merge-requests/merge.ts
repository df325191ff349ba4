// PUT …/merge_requests/:id/merge (GitLab 8.13's API checks, MergeService and Repository#merge). The
// merge commit (parents [target head, source head]) is made without a work tree, then the target branch
// moves to it as a push by the merging user would: the push rules decide, the push is recorded pending,
// the ref moves with compare-and-swap, and push processing marks the MR merged (event, `merge` hook) in
// the same transaction as the push's own events, hooks and pipelines. A crash after the ref moved leaves
// the pending push, and the start-up recovery finishes the merge; before it, nothing moved.
import { projectRepositoryPath } from '../../git/repository.ts';
import { LockScope } from '../../db/session-locks.ts';
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { findMergeRequestById, updateMergeRequest } from '../../db/repositories/merge-requests.ts';
import { BLANK_SHA } from '../../domain/types.ts';
import {
  commitsAheadCount,
  defaultMergeMessage,
  mergeTree,
  writeMergeCommit,
  writeTreeCommit,
  type MergeTree,
} from '../../git/merges.ts';
import { resolveRefs } from '../../git/refs.ts';
import { readCommits } from '../../git/commits.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { projectAccess } from '../../policies/access.ts';
import { updateRefAsPush } from '../push/ref-updates.ts';
import { userSignature, type Pusher } from '../push/push-setup.ts';
import { ApiError, apiError, unauthorized } from '../../errors.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { isWorkInProgress } from '../../domain/titles.ts';
import { canBeMergedBy, ensureHeadInTarget, isOpen, type AccessibleProject } from './merge-requests.ts';
import { headPipeline, isActivePipeline, setMergeWhenBuildSucceeds } from './merge-when-build-succeeds.ts';
import type { MergeRequestRow, MergeStatus, UserRow } from '../../db/types.ts';

export interface MergeParams {
  merge_commit_message?: string;
  should_remove_source_branch?: string;
  sha?: string;
  /** to_boolean(merge_when_build_succeeds): merge once the head pipeline succeeds, if it is active. */
  merge_when_build_succeeds?: boolean;
  /** v4's `squash: true`: the MR wants squashing from now on (false leaves its own wish alone). */
  squash?: boolean;
  /** v4's squash_commit_message; the MR's title by default. */
  squash_commit_message?: string;
}

/** broken?: no commits to merge, or a branch gone (8.13 also counted a known conflict, checked apart). */
async function isBroken(deps: Deps, target: AccessibleProject, mr: MergeRequestRow): Promise<boolean> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, target);
  const targetRef = `refs/heads/${mr.target_branch}`;
  const targetHead = (await resolveRefs(repoPath, [targetRef])).get(targetRef);
  if (!targetHead || !(await ensureHeadInTarget(deps, target, mr))) return true;
  return (await commitsAheadCount(repoPath, targetHead, mr.head_sha!)) === 0;
}

/** A merge-tree answer, and the target head it was computed on (a merge reuses it while that holds). */
interface CheckedMerge {
  targetHead: string;
  merged: MergeTree;
}

/**
 * check_if_can_be_merged: computes merge_status while it is `unchecked` and stores it unless a push
 * reset it meanwhile. Returns the status the merge checks go by, and the merge it computed, if any. The
 * merge request page calls it too, as 8.13's did, so the status it shows is known before anyone presses
 * Merge.
 */
export async function checkMergeStatus(
  deps: Deps,
  target: AccessibleProject,
  mr: MergeRequestRow,
): Promise<{ status: MergeStatus; checked?: CheckedMerge }> {
  if (mr.merge_status !== 'unchecked') return { status: mr.merge_status };
  let status: MergeStatus = 'cannot_be_merged';
  let checked: CheckedMerge | undefined;
  if (!(await isBroken(deps, target, mr))) {
    const repoPath = projectRepositoryPath(deps.config.dataDir, target);
    const targetRef = `refs/heads/${mr.target_branch}`;
    const targetHead = (await resolveRefs(repoPath, [targetRef])).get(targetRef)!;
    checked = { targetHead, merged: await mergeTree(repoPath, targetHead, mr.head_sha!) };
    status = checked.merged.clean ? 'can_be_merged' : 'cannot_be_merged';
  }
  // Not updated_at: 8.13 moved merge_status without touching it (Gitlab::Timeless).
  await updateMergeRequest(
    deps.db.kysely,
    mr.id,
    { merge_status: status },
    { merge_status: 'unchecked', head_sha: mr.head_sha },
  );
  return { status, ...(checked ? { checked } : {}) };
}

/** The message clients match for a lost compare-and-swap; never shown. */
const LOST = 'merge lost its race for the target branch';
const ATTEMPTS = 5;
/** merge_error of a merge that a crash (or a lost lock) interrupted before its branch moved. */
export const INTERRUPTED = 'Something went wrong during merge: the merge was interrupted';

/**
 * Merges the MR as `viewer`, with 8.13's checks in order: 401 (may not push or merge to the target
 * branch), 405 (not open, work in progress, or broken), 406 (conflicts), 409 (`sha` is not the head).
 * Failures inside the merge leave the MR as it was, with `merge_error` set, and still answer the MR.
 */
export async function mergeMergeRequest(
  deps: Deps,
  viewer: UserRow,
  target: AccessibleProject,
  mr: MergeRequestRow,
  params: MergeParams,
): Promise<MergeRequestRow> {
  const pusher: Pusher = { ...target, user: viewer };
  if (!(await canBeMergedBy(deps, viewer, target, mr))) throw unauthorized();
  // mergeable_state?: open, not work in progress, not broken (no commits, a branch gone, a known conflict),
  // and with only_allow_merge_if_build_succeeds a head pipeline, if any, that succeeded (8.13 refuses a
  // running one too, merge_when_build_succeeds or not).
  const pipeline = await headPipeline(deps, mr);
  const ciBlocks =
    target.project.only_allow_merge_if_build_succeeds === 1 &&
    pipeline !== undefined &&
    pipeline.status !== 'success';
  if (
    !isOpen(mr) ||
    isWorkInProgress(mr.title) ||
    mr.merge_status === 'cannot_be_merged' ||
    ciBlocks ||
    (await isBroken(deps, target, mr))
  ) {
    throw apiError(405, '405 Method Not Allowed');
  }
  const { status, checked } = await checkMergeStatus(deps, target, mr);
  if (status !== 'can_be_merged') throw apiError(406, 'Branch cannot be merged');
  if (params.sha !== undefined && params.sha !== '' && params.sha !== mr.head_sha) {
    throw apiError(409, `SHA does not match HEAD of source branch: ${mr.head_sha}`);
  }
  const db = deps.db.kysely;
  if (params.squash && Number(mr.squash) !== 1) {
    // merge_request.update(squash: true), before the merge or the wait for the pipeline.
    mr = (await updateMergeRequest(db, mr.id, { squash: 1 }, { state: mr.state })) ?? mr;
  }
  const mergeParams = {
    ...(mr.merge_params ? (JSON.parse(mr.merge_params) as Record<string, unknown>) : {}),
    ...(params.should_remove_source_branch !== undefined
      ? { should_remove_source_branch: params.should_remove_source_branch }
      : {}),
    ...(params.merge_commit_message ? { commit_message: params.merge_commit_message } : {}),
    ...(params.squash_commit_message ? { squash_commit_message: params.squash_commit_message } : {}),
  };
  if (params.merge_when_build_succeeds && isActivePipeline(pipeline)) {
    return setMergeWhenBuildSucceeds(deps, viewer, mr, mergeParams);
  }
  // While this process merges it holds the MR's session lock, so start-up recovery in another process
  // on the same database leaves the merge alone; the lock dies with the process, making a crashed
  // merge recoverable. It is taken before the MR is locked and let go once the MR is settled.
  if (!(await deps.db.locks.tryAcquire(LockScope.MergeRequestMerge, mr.id))) {
    throw apiError(405, '405 Method Not Allowed');
  }
  try {
    // lock_mr: only one merge of this MR gets past here; a racing one sees it locked (405).
    const locked = await updateMergeRequest(
      db,
      mr.id,
      { state: 'locked', locked_at: now(), merge_params: JSON.stringify(mergeParams), merge_error: null },
      { state: mr.state, head_sha: mr.head_sha },
    );
    if (!locked) throw apiError(405, '405 Method Not Allowed');
    const error = await mergeLocked(deps, pusher, target, locked, params, checked);
    if (error !== null) {
      await unlockMergeRequest(deps, mr.id, error);
    } else if (shouldRemoveSource(params.should_remove_source_branch)) {
      await removeSourceBranch(deps, viewer, locked);
    }
    return (await findMergeRequestById(db, mr.id)) ?? locked;
  } finally {
    await deps.db.locks.release(LockScope.MergeRequestMerge, mr.id);
  }
}

/** unlock_mr: back to reopened, as 8.13's state machine did, with the reason kept. */
export function unlockMergeRequest(
  deps: Deps,
  id: number,
  error: string,
): Promise<MergeRequestRow | undefined> {
  return updateMergeRequest(
    deps.db.kysely,
    id,
    { state: 'reopened', locked_at: null, in_progress_merge_commit_sha: null, merge_error: error },
    { state: 'locked' },
  );
}

/** `.present?`: any non-blank value, even "false". */
function shouldRemoveSource(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}

/**
 * Writes the merge commit on the target head and moves the branch; when another write moved the branch
 * first, merges again on the new head, so no commit is ever lost. A squashing MR first gets one commit
 * of the merged tree on the target head (MergeRequests::SquashService), which the merge commit then
 * merges. Returns null on success, else the merge_error.
 */
async function mergeLocked(
  deps: Deps,
  pusher: Pusher,
  target: AccessibleProject,
  mr: MergeRequestRow,
  params: MergeParams,
  checked: CheckedMerge | undefined,
): Promise<string | null> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, target);
  const ref = `refs/heads/${mr.target_branch}`;
  const message =
    params.merge_commit_message && params.merge_commit_message.trim() !== ''
      ? params.merge_commit_message
      : defaultMergeMessage({
          sourceBranch: mr.source_branch,
          targetBranch: mr.target_branch,
          title: mr.title,
          description: mr.description,
          iid: mr.iid,
        });
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const before = (await resolveRefs(repoPath, [ref])).get(ref);
    if (!before) return 'Something went wrong during merge: the target branch is gone';
    // The status check's merge-tree, while the target has not moved since: one merge-tree per merge.
    const merged =
      checked?.targetHead === before ? checked.merged : await mergeTree(repoPath, before, mr.head_sha!);
    if (!merged.clean) return 'Conflicts detected during merge';
    const squashed =
      Number(mr.squash) === 1 ? await squashCommit(deps, pusher, mr, before, merged.tree, params) : null;
    const commit = await writeMergeCommit(
      repoPath,
      { target: before, source: squashed ?? mr.head_sha!, message, author: userSignature(pusher) },
      merged,
    );
    if (!commit) return 'Conflicts detected during merge';
    // Push processing finds the MR by this sha and marks it merged in its transaction. A lock that is
    // gone was undone by start-up recovery (this merge outlived its process's view): the branch stays.
    const stillLocked = await updateMergeRequest(
      deps.db.kysely,
      mr.id,
      { in_progress_merge_commit_sha: commit, ...(squashed ? { squash_commit_sha: squashed } : {}) },
      { state: 'locked' },
    );
    if (!stillLocked) return INTERRUPTED;
    try {
      await updateRefAsPush(deps, pusher, { before, after: commit, ref }, LOST, true);
      return null;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const text = String(error.body?.message ?? '');
      if (text !== LOST) return text;
    }
  }
  return 'Something went wrong during merge: the target branch kept moving';
}

/**
 * The squash commit: the merged tree on the target head, authored by the MR's author and committed by
 * the merging user, with the squash message (the MR's title unless one was given). An MR of one commit
 * that already carries that message is its own squash (nothing to rewrite), as GitLab answers it.
 */
async function squashCommit(
  deps: Deps,
  pusher: Pusher,
  mr: MergeRequestRow,
  targetHead: string,
  tree: string,
  params: MergeParams,
): Promise<string> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, pusher);
  const kept = mr.merge_params ? (JSON.parse(mr.merge_params) as Record<string, unknown>) : {};
  const given = params.squash_commit_message ?? kept.squash_commit_message;
  const message = typeof given === 'string' && given.trim() !== '' ? given : mr.title;
  const head = mr.head_sha!;
  if ((await commitsAheadCount(repoPath, targetHead, head)) === 1) {
    const only = (await readCommits(repoPath, [head])).get(head);
    if (only && only.message.trim() === message.trim()) return head;
  }
  const author = mr.author_id === null ? undefined : await findUserById(deps.db.kysely, mr.author_id);
  const committer = userSignature(pusher);
  return writeTreeCommit(repoPath, {
    tree,
    parents: [targetHead],
    message,
    author: author ? userSignature({ ...pusher, user: author }) : committer,
    committer,
  });
}

/** DeleteBranchService after a merge: refused quietly for protected or default branches and non-pushers. */
async function removeSourceBranch(deps: Deps, viewer: UserRow, mr: MergeRequestRow): Promise<void> {
  if (mr.source_project_id === null) return;
  const source = await findProjectRecordById(deps.db.kysely, mr.source_project_id);
  if (!source || mr.source_branch === (source.project.default_branch ?? 'master')) return;
  const access = await projectAccess(deps.db.kysely, viewer, source);
  const pusher: Pusher = { ...source, access, user: viewer };
  const ref = `refs/heads/${mr.source_branch}`;
  const head = (await resolveRefs(projectRepositoryPath(deps.config.dataDir, source), [ref])).get(ref);
  if (!head) return;
  try {
    await updateRefAsPush(deps, pusher, { before: head, after: BLANK_SHA, ref }, LOST);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    deps.log.info({ mergeRequestId: mr.id, reason: error.body?.message }, 'source branch kept after merge');
  }
}
