// What a push means for merge requests (GitLab 8.13's MergeRequests::RefreshService and the end of
// MergeService), recorded in the push's own transaction: open MRs from a moved branch see its new head,
// MRs from or into it are checked again (merge_status back to `unchecked`), an automatic merge armed on
// a moved source branch is reset (flag off, no merging user, its merge params forgotten), and a merge whose commit this push put on the target branch is complete: the MR is merged, with
// its event and `merge` hook; open MRs from a moved branch send an `update` hook with `oldrev`. So a crash between a merge's ref write and its processing is finished by
// the start-up recovery of pending pushes, like any push.
import type { Deps } from '../../deps.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import {
  findMergesInProgress,
  findOpenFromSourceBranch,
  findOpenIntoBranch,
  refreshForBranchPush,
  updateMergeRequest,
} from '../../db/repositories/merge-requests.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { BLANK_SHA } from '../../domain/types.ts';
import type { RefUpdate } from '../../git/protocol/pkt-line.ts';
import { EventAction } from '../../domain/types.ts';
import { recordEvent } from '../activity/events.ts';
import {
  announceMergeRequest,
  ensureHeadInTarget,
  hookParts,
  mergeRequestNoteTarget,
  noteStatusChange,
} from './merge-requests.ts';
import { planVersion, recordVersion, type PlannedVersion } from './versions.ts';
import { updateMergeRequestHeadRef } from '../ci/merge-request-pipelines.ts';
import { addSystemNoteOn } from '../issues/issue-activity.ts';
import { commitsAddedNote, type CommitsAdded } from '../issues/system-note-texts.ts';
import { commitIdsBetween, commitsBetween } from '../../git/commits.ts';
import { mergeBase } from '../../git/diffs.ts';
import { mergeRequestWebUrl } from '../../domain/paths.ts';
import { autoMergeReset } from './merge-when-build-succeeds.ts';
import { closeIssuesOnMerge, closingIssueIids } from './closing-issues.ts';
import type { Executor, MergeRequestRow, ProjectRecord, UserRow } from '../../db/types.ts';

const BRANCH_PREFIX = 'refs/heads/';

export interface MergeRequestRefresh {
  branches: Array<{ branch: string; head: string | null }>;
  merges: Array<{
    mr: MergeRequestRow;
    /** The merge commit of a merge through Labrador; null for an MR merged by a push of its head. */
    commit: string | null;
    parts: Awaited<ReturnType<typeof hookParts>>;
    /** The iids of the issues the merge closes (closing-issues.ts). */
    closes: number[];
  }>;
  /** Open MRs from a moved branch: an `update` hook with `oldrev`, to their target's hooks. */
  updates: Array<{
    mr: MergeRequestRow;
    target: ProjectRecord;
    oldrev: string | null;
    parts: Awaited<ReturnType<typeof hookParts>>;
    /** The MR's new version (8.12's merge_request_diffs). */
    version: PlannedVersion;
    /** What the `Added N commits` note lists (the URL waits for the version's id), or null for none. */
    commits: (Omit<CommitsAdded, 'compareUrl'> & { startSha: string }) | null;
  }>;
  /** `Deleted source branch` / `Restored source branch` notes (RefreshService#comment_mr_branch_presence_changed). */
  presence: Array<{ mr: MergeRequestRow; body: string }>;
}

/** Read before the push's transaction: the branches moved and the merges the push completes. */
export async function planMergeRequestRefresh(
  deps: Deps,
  record: ProjectRecord,
  applied: RefUpdate[],
): Promise<MergeRequestRefresh> {
  const plan: MergeRequestRefresh = { branches: [], merges: [], updates: [], presence: [] };
  for (const change of applied) {
    if (!change.ref.startsWith(BRANCH_PREFIX)) continue;
    const branch = change.ref.slice(BRANCH_PREFIX.length);
    const head = change.after === BLANK_SHA ? null : change.after;
    const oldrev = change.before === BLANK_SHA ? null : change.before;
    plan.branches.push({ branch, head });
    const fromBranch = await findOpenFromSourceBranch(deps.db.kysely, record.project.id, branch);
    if (!head || !oldrev) {
      const body = `${head ? 'Restored' : 'Deleted'} source branch \`${branch}\``;
      plan.presence.push(...fromBranch.map((mr) => ({ mr, body })));
    }
    if (!head) continue;
    for (const open of fromBranch) {
      const target =
        open.target_project_id === record.project.id
          ? record
          : await findProjectRecordById(deps.db.kysely, open.target_project_id);
      if (!target) continue;
      const mr: MergeRequestRow = { ...open, head_sha: head, merge_status: 'unchecked' };
      await ensureHeadInTarget(deps, target, mr);
      await updateMergeRequestHeadRef(deps, target, mr, head);
      const version = await planVersion(deps, target, mr.target_branch, head);
      const commits = await pushedCommits(deps, record, target, open, oldrev, head, version);
      plan.updates.push({
        mr,
        target,
        oldrev,
        parts: await hookParts(deps, target, mr),
        version,
        commits: commits && { ...commits, startSha: change.before },
      });
    }
    for (const mr of await findMergesInProgress(deps.db.kysely, record.project.id, branch, head)) {
      plan.merges.push(await planMergeCompletion(deps, record, mr, head));
    }
    // RefreshService#close_merge_requests: an open MR into this branch whose head the push brought
    // (merged by hand and pushed) is merged, as PostMergeService marks it.
    if (!oldrev) continue;
    const into = (await findOpenIntoBranch(deps.db.kysely, record.project.id, branch)).filter(
      (mr) => mr.head_sha !== null && mr.source_project_id !== null,
    );
    if (into.length === 0) continue;
    const pushed = new Set(
      await commitIdsBetween(projectRepositoryPath(deps.config.dataDir, record), oldrev, head),
    );
    for (const mr of into) {
      if (pushed.has(mr.head_sha!)) plan.merges.push(await planMergeCompletion(deps, record, mr, null));
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
  if (user) {
    for (const { mr, body } of plan.presence)
      await addSystemNoteOn(trx, mergeRequestNoteTarget(mr), user, body, at);
  }
  for (const { mr, target, version, commits } of plan.updates) {
    const versionId = await recordVersion(trx, mr.id, version, at);
    if (!user || !commits) continue;
    const compareUrl =
      `${mergeRequestWebUrl(deps.config.externalUrl, target, mr.iid)}/diffs` +
      `?diff_id=${versionId}&start_sha=${commits.startSha}`;
    await addSystemNoteOn(
      trx,
      mergeRequestNoteTarget(mr),
      user,
      commitsAddedNote({ ...commits, compareUrl }),
      at,
    );
  }
  if (user) {
    for (const { mr, target, oldrev, parts } of plan.updates) {
      await announceMergeRequest(deps, trx, target, { ...mr, ...autoMergeReset(mr), updated_at: at }, parts, {
        action: 'update',
        user,
        ...(oldrev ? { oldrev } : {}),
      });
    }
  }
  for (const { mr, commit, parts, closes } of plan.merges) {
    await completeMerge(deps, trx, record, user, { mr, commit, parts, closes }, at);
  }
}

/** Read before completeMerge's transaction: the hook's parts and the issues the merge closes. */
export async function planMergeCompletion(
  deps: Deps,
  record: ProjectRecord,
  mr: MergeRequestRow,
  commit: string | null,
): Promise<MergeRequestRefresh['merges'][number]> {
  const parts = await hookParts(deps, record, mr);
  const closes = await closingIssueIids(deps, record, {
    ...mr,
    merge_commit_sha: commit ?? mr.merge_commit_sha,
  });
  return { mr, commit, parts, closes };
}

/**
 * The end of MergeService (PostMergeService): a locked MR whose merge commit is on its target branch is
 * merged, closing the issues it names, with its event, note and `merge` hook (by `user`, when known);
 * so is an open MR whose head a push put on its target branch. Nothing when the MR's state has changed.
 */
export async function completeMerge(
  deps: Deps,
  trx: Executor,
  record: ProjectRecord,
  user: UserRow | null,
  { mr, commit, parts, closes }: MergeRequestRefresh['merges'][number],
  at: string,
): Promise<void> {
  const merged = await updateMergeRequest(
    trx,
    mr.id,
    {
      state: 'merged',
      merge_commit_sha: commit ?? mr.merge_commit_sha,
      in_progress_merge_commit_sha: null,
      merge_user_id: user?.id ?? null,
      locked_at: null,
      merge_error: null,
      merge_when_build_succeeds: 0,
      updated_at: at,
    },
    // Locked for a merge through Labrador, open for one a push made; gone by then: nothing to do.
    { state: mr.state },
  );
  if (!merged || !user) return;
  await closeIssuesOnMerge(trx, deps, record, user, merged, closes, at);
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

/**
 * The commits a push brought to an MR's source branch (RefreshService#find_new_commits): those after the
 * old head, or for a restored branch those after where it meets the MR's last head; split into the ones
 * in the MR's new version and the rest (already in the target branch). Null when there are none.
 */
async function pushedCommits(
  deps: Deps,
  source: ProjectRecord,
  target: ProjectRecord,
  mr: MergeRequestRow,
  oldrev: string | null,
  head: string,
  version: PlannedVersion,
): Promise<Omit<CommitsAdded, 'compareUrl'> | null> {
  const sourceRepo = projectRepositoryPath(deps.config.dataDir, source);
  const from = oldrev ?? (mr.head_sha ? await mergeBase(sourceRepo, mr.head_sha, head) : undefined);
  if (!from) return null;
  const { commits } = await commitsBetween(sourceRepo, from, head, Number.POSITIVE_INFINITY);
  if (commits.length === 0) return null;
  const inVersion = new Set(
    version.state === 'empty'
      ? []
      : await commitIdsBetween(
          projectRepositoryPath(deps.config.dataDir, target),
          version.start_commit_sha ?? null,
          head,
        ),
  );
  const forked = mr.source_project_id !== mr.target_project_id;
  return {
    added: commits.filter((commit) => inVersion.has(commit.id)),
    existing: commits.filter((commit) => !inVersion.has(commit.id)),
    oldrev,
    targetBranch: forked ? `${target.namespace.path}:${mr.target_branch}` : mr.target_branch,
  };
}
