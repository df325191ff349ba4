// GET …/repository/compare: the commits `to` has that `from` lacks (oldest first), and the diff from
// their merge base to `to` (what `git diff from...to` shows). Unknown refs compare as empty. The commit
// list streams; the diffs stop at generous limits (GitLab listed every diff of a compare, without any).
import { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import { collectCommits, walkCommits } from '../git/commit-log.ts';
import { diffTrees, EMPTY_TREE, lineCount, mergeBase } from '../git/diffs.ts';
import { compareJsonChunks } from '../presenters/api-v3/compare.ts';
import { COMMIT_DIFF_LIMITS } from './commit-views.ts';
import { findCommitId } from './repository-access.ts';
import type { ProjectRecord } from '../db/types.ts';

/** Commit#max_diff_options: the most a compare lists. */
const COMPARE_DIFF_LIMITS = { maxFiles: 1000, maxLines: 50000, maxFileBytes: 100 * 1024 };

async function* nothing() {}

export async function compareRefs(
  deps: Deps,
  record: ProjectRecord,
  from: string,
  to: string,
): Promise<Readable> {
  const [base, head] = await Promise.all([
    findCommitId(deps, record, from.trim()),
    findCommitId(deps, record, to.trim()),
  ]);
  if (!base || !head || base.commitId === head.commitId) {
    const parts = {
      newest: null,
      commits: nothing(),
      same: !!base && !!head,
      diffs: async () => ({ diffs: [], overLimits: false }),
    };
    return Readable.from(compareJsonChunks(parts));
  }
  const repoPath = head.repoPath;
  const range = [`^${base.commitId}`, head.commitId, '--'];
  const [newest] = await collectCommits(repoPath, ['--date-order', '--max-count=1', ...range]);
  const diffs = async () => {
    const from = (await mergeBase(repoPath, base.commitId, head.commitId)) ?? EMPTY_TREE;
    const result = await diffTrees(repoPath, from, head.commitId, COMPARE_DIFF_LIMITS);
    const lines = result.diffs.reduce((sum, diff) => sum + lineCount(diff.diff), 0);
    const overLimits =
      result.overflow ||
      result.diffs.length > COMMIT_DIFF_LIMITS.maxFiles ||
      lines >= COMMIT_DIFF_LIMITS.maxLines;
    return { diffs: result.diffs, overLimits };
  };
  return Readable.from(
    compareJsonChunks({
      newest: newest ?? null,
      commits: walkCommits(repoPath, ['--date-order', '--reverse', ...range]),
      diffs,
      same: false,
    }),
  );
}
