// Commits of a repository: a page of history (GitLab 8.13's page numbers start at 0), one commit with
// its line stats and pipeline status, and its diff against its first parent.
import type { Deps } from '../deps.ts';
import { readCommits } from '../git/commits.ts';
import { collectCommits } from '../git/commit-log.ts';
import { diffStats, diffTrees, EMPTY_TREE } from '../git/diffs.ts';
import { notFound } from '../errors.ts';
import { compositeStatus } from '../ci/status.ts';
import { pipelineStatusCounts } from '../db/repositories/pipelines.ts';
import { presentRepoCommit, presentRepoCommitDetail } from '../presenters/api-v3/commit.ts';
import { presentCommitDiff } from '../presenters/api-v3/diff.ts';
import { defaultRef, findCommitId, requireCommitId } from './repository-access.ts';
import type { ProjectRecord } from '../db/types.ts';

export interface CommitPageQuery {
  ref?: string;
  page: number;
  perPage: number;
  /** Milliseconds since the epoch. */
  since?: number;
  until?: number;
}

/** Gitlab::Git::DiffCollection's default limits, and the size beyond which one file's patch is dropped. */
export const COMMIT_DIFF_LIMITS = { maxFiles: 100, maxLines: 5000, maxFileBytes: 100 * 1024 };

export async function listCommitsPage(deps: Deps, record: ProjectRecord, query: CommitPageQuery) {
  const found = await findCommitId(deps, record, query.ref ?? defaultRef(record));
  // An unknown ref lists nothing (GitLab answered 200 with an empty list).
  if (!found) return [];
  const args = [`--skip=${query.page * query.perPage}`, `--max-count=${query.perPage}`];
  if (query.since !== undefined) args.push(`--since=@${Math.floor(query.since / 1000)}`);
  if (query.until !== undefined) args.push(`--until=@${Math.floor(query.until / 1000)}`);
  const commits = await collectCommits(found.repoPath, [...args, found.commitId, '--']);
  return commits.map(presentRepoCommit);
}

/**
 * RepoCommitDetail of the commit any revision (sha, branch, tag) names; its status is that of its
 * pipelines together (Ci::Pipeline.status), null while it has none.
 */
export async function commitDetail(deps: Deps, record: ProjectRecord, revision: string) {
  const { repoPath, commitId } = await requireCommitId(deps, record, revision);
  const commit = (await readCommits(repoPath, [commitId])).get(commitId);
  if (!commit) throw notFound('Commit');
  const [stats, pipelines] = await Promise.all([
    diffStats(repoPath, commit.parentIds[0] ?? EMPTY_TREE, commit.id),
    pipelineStatusCounts(deps.db.kysely, record.project.id, commit.id),
  ]);
  const status = compositeStatus(
    pipelines.map(({ status, count }) => ({
      status,
      count,
      allowFailure: false,
      when: 'on_success' as const,
    })),
  );
  return presentRepoCommitDetail(commit, stats, status ?? null);
}

export async function commitDiff(deps: Deps, record: ProjectRecord, revision: string) {
  const { repoPath, commitId } = await requireCommitId(deps, record, revision);
  const commit = (await readCommits(repoPath, [commitId])).get(commitId)!;
  const { diffs } = await diffTrees(
    repoPath,
    commit.parentIds[0] ?? EMPTY_TREE,
    commitId,
    COMMIT_DIFF_LIMITS,
  );
  return diffs.map(presentCommitDiff);
}
