// What a push means for merge requests (GitLab 8.13's MergeRequests::RefreshService and the end of
// MergeService), recorded in the push's own transaction: open MRs from a moved branch see its new head,
// MRs from or into it are checked again (merge_status back to `unchecked`), an automatic merge armed on
// a moved source branch is reset (flag off, no merging user, its merge params forgotten), and a merge whose commit this push put on the target branch is complete: the MR is merged, with
// its event and `merge` hook; open MRs from a moved branch send an `update` hook with `oldrev`. So a crash between a merge's ref write and its processing is finished by
// the start-up recovery of pending pushes, like any push.
import type { Deps } from '../../deps.ts';
import {
  findMergesInProgress,
  findOpenFromSourceBranch,
  refreshForBranchPush,
  updateMergeRequest,
} from '../../db/repositories/merge-requests.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { BLANK_SHA } from '../../domain/types.ts';
import type { RefUpdate } from '../../git/protocol/pkt-line.ts';
import { EventAction } from '../../domain/types.ts';
import { recordEvent } from '../activity/events.ts';
import { announceMergeRequest, ensureHeadInTarget, hookParts, noteStatusChange } from './merge-requests.ts';
import { planVersion, recordVersion, type PlannedVersion } from './versions.ts';
import { autoMergeReset } from './merge-when-build-succeeds.ts';
import type { Executor, MergeRequestRow, ProjectRecord, UserRow } from '../../db/types.ts';

const BRANCH_PREFIX = 'refs/heads/';

export interface MergeRequestRefresh {
  branches: Array<{ branch: string; head: string | null }>;
  merges: Array<{ mr: MergeRequestRow; commit: string; parts: Awaited<ReturnType<typeof hookParts>> }>;
  /** Open MRs from a moved branch: an `update` hook with `oldrev`, to their target's hooks. */
  updates: Array<{
    mr: MergeRequestRow;
    target: ProjectRecord;
    oldrev: string | null;
    parts: Awaited<ReturnType<typeof hookParts>>;
    /** The MR's new version (8.12's merge_request_diffs). */
    version: PlannedVersion;
  }>;
}

/** Read before the push's transaction: the branches moved and the merges the push completes. */
export async function planMergeRequestRefresh(
  deps: Deps,
  record: ProjectRecord,
  applied: RefUpdate[],
): Promise<MergeRequestRefresh> {
  const plan: MergeRequestRefresh = { branches: [], merges: [], updates: [] };
  for (const change of applied) {
    if (!change.ref.startsWith(BRANCH_PREFIX)) continue;
    const branch = change.ref.slice(BRANCH_PREFIX.length);
    const head = change.after === BLANK_SHA ? null : change.after;
    plan.branches.push({ branch, head });
    if (!head) continue;
    for (const open of await findOpenFromSourceBranch(deps.db.kysely, record.project.id, branch)) {
      const target =
        open.target_project_id === record.project.id
          ? record
          : await findProjectRecordById(deps.db.kysely, open.target_project_id);
      if (!target) continue;
      const mr: MergeRequestRow = { ...open, head_sha: head, merge_status: 'unchecked' };
      const oldrev = change.before === BLANK_SHA ? null : change.before;
      await ensureHeadInTarget(deps, target, mr);
      const version = await planVersion(deps, target, mr.target_branch, head);
      plan.updates.push({ mr, target, oldrev, parts: await hookParts(deps, target, mr), version });
    }
    for (const mr of await findMergesInProgress(deps.db.kysely, record.project.id, branch, head)) {
      plan.merges.push({ mr, commit: head, parts: await hookParts(deps, record, mr) });
    }
  }
  return plan;
}

/** In the push's transaction. */
export async function applyMergeRequestRefresh(
  deps: Deps,
  trx: Executor,
  record: ProjectRecord,
  user: UserRow | null,
  plan: MergeRequestRefresh,
  at: string,
): Promise<void> {
  for (const { branch, head } of plan.branches) {
    for (const moved of await refreshForBranchPush(trx, record.project.id, branch, head, at)) {
      // RefreshService#reset_merge_when_build_succeeds: a new head is not what the merge was armed for.
      const reset = autoMergeReset(moved);
      if (reset) await updateMergeRequest(trx, moved.id, reset);
    }
  }
  for (const { mr, version } of plan.updates) await recordVersion(trx, mr.id, version, at);
  if (user) {
    for (const { mr, target, oldrev, parts } of plan.updates) {
      await announceMergeRequest(deps, trx, target, { ...mr, ...autoMergeReset(mr), updated_at: at }, parts, {
        action: 'update',
        user,
        ...(oldrev ? { oldrev } : {}),
      });
    }
  }
  for (const { mr, commit, parts } of plan.merges) {
    await completeMerge(deps, trx, record, user, mr, commit, parts, at);
  }
}

/**
 * The end of MergeService: a locked MR whose merge commit is on its target branch is merged, with its
 * event and `merge` hook (by `user`, when known). Nothing when the MR is no longer locked.
 */
export async function completeMerge(
  deps: Deps,
  trx: Executor,
  record: ProjectRecord,
  user: UserRow | null,
  mr: MergeRequestRow,
  commit: string,
  parts: Awaited<ReturnType<typeof hookParts>>,
  at: string,
): Promise<void> {
  const merged = await updateMergeRequest(
    trx,
    mr.id,
    {
      state: 'merged',
      merge_commit_sha: commit,
      in_progress_merge_commit_sha: null,
      merge_user_id: user?.id ?? null,
      locked_at: null,
      merge_error: null,
      merge_when_build_succeeds: 0,
      updated_at: at,
    },
    { state: 'locked' },
  );
  if (!merged || !user) return;
  await recordEvent(trx, {
    projectId: record.project.id,
    authorId: user.id,
    action: EventAction.Merged,
    targetId: merged.id,
    targetType: 'MergeRequest',
    title: merged.title,
    at,
  });
  await noteStatusChange(trx, merged, user, at);
  await announceMergeRequest(deps, trx, record, merged, parts, { action: 'merge', user });
}
