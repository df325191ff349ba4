// Start-up recovery of merges a crash interrupted. A merge locks its MR, writes the merge commit, then
// moves the target branch as a push (recorded pending first), whose processing marks the MR merged.
// recoverPendingPushes finishes every merge whose branch moved; what is still locked afterwards either
// has its merge commit on the target branch (merged now, as the push would have) or never moved the
// branch (unlocked, as 8.13's unlock_mr did after a failed merge), so no MR stays locked forever.
import { projectRepositoryPath } from '../../git/repository.ts';
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { findMergeRequestById, listLockedMergeRequests } from '../../db/repositories/merge-requests.ts';
import { LockScope } from '../../db/session-locks.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { findUserByEmail, findUserById } from '../../db/repositories/users.ts';
import { readCommits } from '../../git/commits.ts';
import { resolveRefs } from '../../git/refs.ts';
import { isAncestor } from '../../git/revisions.ts';
import { INTERRUPTED, unlockMergeRequest } from './merge.ts';
import { completeMerge, planMergeCompletion } from './push-refresh.ts';
import type { MergeRequestRow, ProjectRecord, UserRow } from '../../db/types.ts';

/**
 * Runs after recoverPendingPushes. Returns how many locked MRs it settled. An MR whose merge session lock
 * a live process holds (another server on the same PostgreSQL database, mid-merge) is left to it: only
 * a merge whose process died is finished or undone here, holding the lock meanwhile.
 */
export async function recoverLockedMerges(deps: Deps): Promise<number> {
  let settled = 0;
  for (const mr of await listLockedMergeRequests(deps.db.kysely)) {
    try {
      if (!(await deps.db.locks.tryAcquire(LockScope.MergeRequestMerge, mr.id))) {
        deps.log.info({ mergeRequestId: mr.id }, 'locked merge request left to its live merge');
        continue;
      }
      try {
        await recoverLockedMerge(deps, mr.id);
        settled++;
      } finally {
        await deps.db.locks.release(LockScope.MergeRequestMerge, mr.id);
      }
    } catch (error) {
      deps.log.error({ err: error, mergeRequestId: mr.id }, 'recovering a locked merge request failed');
    }
  }
  return settled;
}

async function recoverLockedMerge(deps: Deps, id: number): Promise<void> {
  const db = deps.db.kysely;
  // Read again under the lock: the merge may have settled between the list and the lock.
  const mr = await findMergeRequestById(db, id);
  if (!mr || mr.state !== 'locked') return;
  const target = await findProjectRecordById(db, mr.target_project_id);
  const commit = mr.in_progress_merge_commit_sha;
  if (target && commit && (await isOnTargetBranch(deps, target, mr.target_branch, commit))) {
    const user = await mergingUser(deps, target, mr, commit);
    const merge = await planMergeCompletion(deps, target, mr, commit);
    const at = now();
    await db.transaction().execute((trx) => completeMerge(deps, trx, target, user, merge, at));
    deps.log.info({ mergeRequestId: mr.id }, 'merge finished after a crash');
    return;
  }
  await unlockMergeRequest(deps, mr.id, INTERRUPTED);
  deps.log.info({ mergeRequestId: mr.id }, 'merge undone after a crash: merge request unlocked');
}

async function isOnTargetBranch(
  deps: Deps,
  target: ProjectRecord,
  branch: string,
  commit: string,
): Promise<boolean> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, target);
  const ref = `refs/heads/${branch}`;
  const head = (await resolveRefs(repoPath, [ref])).get(ref);
  return head !== undefined && (await isAncestor(repoPath, commit, head));
}

/** The merge commit is authored by whoever merged (userSignature); merge_user_id when it names one. */
async function mergingUser(
  deps: Deps,
  target: ProjectRecord,
  mr: MergeRequestRow,
  commit: string,
): Promise<UserRow | null> {
  const db = deps.db.kysely;
  if (mr.merge_user_id !== null) return (await findUserById(db, mr.merge_user_id)) ?? null;
  const merge = (await readCommits(projectRepositoryPath(deps.config.dataDir, target), [commit])).get(commit);
  return (merge && (await findUserByEmail(db, merge.authorEmail))) ?? null;
}
