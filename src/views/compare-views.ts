// GET …/repository/compare: the commits `to` has that `from` lacks (oldest first), and the diff from
// their merge base to `to` (what `git diff from...to` shows; v4's `straight` diffs from `from` itself).
// Unknown refs compare as empty. The commit list streams; the diffs stop at generous limits (GitLab
// listed every diff of a compare, without any).
import type { Deps } from '../deps.ts';
import { readCommits, type Commit } from '../git/commits.ts';
import { collectCommits, walkCommits } from '../git/commit-log.ts';
import { diffTrees, EMPTY_TREE, lineCount, mergeBase, type FileDiff } from '../git/diffs.ts';
import { COMMIT_DIFF_LIMITS } from './commit-views.ts';
import { findCommitId } from './repository-access.ts';
import type { ProjectRecord } from '../db/types.ts';

/** Commit#max_diff_options: the most a compare lists. */
const COMPARE_DIFF_LIMITS = { maxFiles: 1000, maxLines: 50000, maxFileBytes: 100 * 1024 };

/** A compare as both versions write it, streaming: the commits are walked as they are written. */
export interface CompareParts {
  newest: Commit | null;
  commits: AsyncIterable<Commit>;
  /** Read after the commits have been written. */
  diffs: () => Promise<{ diffs: FileDiff[]; overLimits: boolean }>;
  same: boolean;
}

async function* nothing() {}

export async function compareRefs(
  deps: Deps,
  record: ProjectRecord,
  from: string,
  to: string,
  straight = false,
): Promise<CompareParts> {
  const [base, head] = await Promise.all([
    findCommitId(deps, record, from.trim()),
    findCommitId(deps, record, to.trim()),
  ]);
  if (!base || !head || base.commitId === head.commitId) {
    return {
      newest: null,
      commits: nothing(),
      same: !!base && !!head,
      diffs: async () => ({ diffs: [], overLimits: false }),
    };
  }
  const repoPath = head.repoPath;
  const range = [`^${base.commitId}`, head.commitId, '--'];
  const [newest] = await collectCommits(repoPath, ['--date-order', '--max-count=1', ...range]);
  const diffs = async () => {
    const from = straight
      ? base.commitId
      : ((await mergeBase(repoPath, base.commitId, head.commitId)) ?? EMPTY_TREE);
    const result = await diffTrees(repoPath, from, head.commitId, COMPARE_DIFF_LIMITS);
    const lines = result.diffs.reduce((sum, diff) => sum + lineCount(diff.diff), 0);
    const overLimits =
      result.overflow ||
      result.diffs.length > COMMIT_DIFF_LIMITS.maxFiles ||
      lines >= COMMIT_DIFF_LIMITS.maxLines;
    return { diffs: result.diffs, overLimits };
  };
  return {
    newest: newest ?? null,
    commits: walkCommits(repoPath, ['--date-order', '--reverse', ...range]),
    diffs,
    same: false,
  };
}

/**
 * GET …/repository/merge_base (v4): the best common ancestor of every ref given (folded pair by pair),
 * the refs that name no commit, or no commit for unrelated histories.
 */
export async function mergeBaseOf(
  deps: Deps,
  record: ProjectRecord,
  refs: string[],
): Promise<{ commit: Commit | undefined } | { unknown: string[] }> {
  const found = await Promise.all(refs.map((ref) => findCommitId(deps, record, ref)));
  const unknown = refs.filter((_ref, index) => !found[index]);
  if (unknown.length > 0) return { unknown };
  const repoPath = found[0]!.repoPath;
  let base: string | undefined = found[0]!.commitId;
  for (const next of found.slice(1)) {
    if (base === undefined) break;
    base = await mergeBase(repoPath, base, next!.commitId);
  }
  if (base === undefined) return { commit: undefined };
  return { commit: (await readCommits(repoPath, [base])).get(base) };
}
