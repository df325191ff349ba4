// Merge request versions (GitLab 8.12's MergeRequestDiff): each head an MR has had, with the target head
// it was compared with (start), their merge base and the number of files changed. Read from git before
// the transaction that records them (the MR's creation, or the push that moved its source branch).
import { projectRepositoryPath } from '../../git/repository.ts';
import type { Deps } from '../../deps.ts';
import { insertMergeRequestDiff } from '../../db/repositories/merge-request-diffs.ts';
import { diffTrees, EMPTY_TREE, mergeBase } from '../../git/diffs.ts';
import { hasCommit } from '../../git/merges.ts';
import { resolveRefs } from '../../git/refs.ts';
import { COMMIT_DIFF_LIMITS } from '../../views/commit-views.ts';
import type { Executor, NewMergeRequestDiffRow, ProjectRecord } from '../../db/types.ts';

export type PlannedVersion = Omit<NewMergeRequestDiffRow, 'merge_request_id' | 'created_at'>;

/** The version of an MR of `target` into `targetBranch` whose head is `head` (in the target's repository). */
export async function planVersion(
  deps: Deps,
  target: ProjectRecord,
  targetBranch: string,
  head: string,
): Promise<PlannedVersion> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, target);
  // A fork's head that could not be fetched: the version names it and nothing else (8.13's `empty`).
  if (!(await hasCommit(repoPath, head))) {
    return {
      state: 'empty',
      head_commit_sha: head,
      base_commit_sha: null,
      start_commit_sha: null,
      real_size: null,
    };
  }
  const ref = `refs/heads/${targetBranch}`;
  const start = (await resolveRefs(repoPath, [ref])).get(ref) ?? null;
  const base = (start && (await mergeBase(repoPath, start, head))) ?? null;
  const { diffs, overflow } = await diffTrees(repoPath, base ?? EMPTY_TREE, head, COMMIT_DIFF_LIMITS);
  return {
    state: overflow ? 'overflow' : 'collected',
    head_commit_sha: head,
    base_commit_sha: base,
    start_commit_sha: start,
    real_size: overflow ? `${diffs.length}+` : String(diffs.length),
  };
}

/** In the transaction that gave the MR this head. */
export async function recordVersion(
  trx: Executor,
  mergeRequestId: number,
  version: PlannedVersion,
  at: string,
): Promise<number> {
  return insertMergeRequestDiff(trx, { ...version, merge_request_id: mergeRequestId, created_at: at });
}
