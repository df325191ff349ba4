// Commits of a repository: a page of history (8.13's page numbers start at 0, v4's at 1, the walk is the
// same), one commit with its line stats, pipeline status and newest pipeline, its diff against its first
// parent, and the branches and tags that hold it. Views give commits as git has them; presenters shape them.
import type { Deps } from '../deps.ts';
import { readCommits, type Commit } from '../git/commits.ts';
import { collectCommits } from '../git/commit-log.ts';
import { diffStats, diffTrees, EMPTY_TREE, type DiffStats, type FileDiff } from '../git/diffs.ts';
import { git } from '../git/exec.ts';
import { projectRepositoryPath, repositoryExists } from '../git/repository.ts';
import { notFound } from '../errors.ts';
import { compositeStatus } from '../ci/status.ts';
import { findLatestPipelineFor, pipelineStatusCounts } from '../db/repositories/pipelines.ts';
import { defaultRef, findCommitId, requireCommitId } from './repository-access.ts';
import type { CiPipelineRow, ProjectRecord } from '../db/types.ts';

export interface CommitListQuery {
  ref?: string;
  /** Every branch and tag instead of one ref (v4's `all`). */
  all?: boolean;
  path?: string;
  firstParent?: boolean;
  /** Milliseconds since the epoch. */
  since?: number;
  until?: number;
}

/** Gitlab::Git::DiffCollection's default limits, and the size beyond which one file's patch is dropped. */
export const COMMIT_DIFF_LIMITS = { maxFiles: 100, maxLines: 5000, maxFileBytes: 100 * 1024 };

/** The `rev-list` arguments of a history query, or undefined when its ref names nothing. */
async function historyArgs(deps: Deps, record: ProjectRecord, query: CommitListQuery) {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  let revisions = ['--branches', '--tags'];
  if (!query.all) {
    const found = await findCommitId(deps, record, query.ref ?? defaultRef(record));
    if (!found) return undefined;
    revisions = [found.commitId];
  } else if (!(await repositoryExists(repoPath))) return undefined;
  const args: string[] = [];
  if (query.since !== undefined) args.push(`--since=@${Math.floor(query.since / 1000)}`);
  if (query.until !== undefined) args.push(`--until=@${Math.floor(query.until / 1000)}`);
  if (query.firstParent) args.push('--first-parent');
  const paths = query.path !== undefined && query.path !== '' ? [query.path] : [];
  return { repoPath, args, tail: [...revisions, '--', ...paths] };
}

/** One page of history, newest first (an unknown ref lists nothing, as GitLab answered 200 with []). */
export async function listCommits(
  deps: Deps,
  record: ProjectRecord,
  query: CommitListQuery,
  page: { offset: number; limit: number },
): Promise<Commit[]> {
  const history = await historyArgs(deps, record, query);
  if (!history) return [];
  const paging = [`--skip=${page.offset}`, `--max-count=${page.limit}`];
  return collectCommits(history.repoPath, [...history.args, ...paging, ...history.tail]);
}

/** How many commits the whole history query lists (v4's X-Total). */
export async function countCommits(
  deps: Deps,
  record: ProjectRecord,
  query: CommitListQuery,
): Promise<number> {
  const history = await historyArgs(deps, record, query);
  if (!history) return 0;
  const out = await git(['rev-list', '--count', ...history.args, ...history.tail], { cwd: history.repoPath });
  return Number(out.trim());
}

/** Each commit's line stats against its first parent (v4's `with_stats`), one diff-tree per commit. */
export function commitStats(deps: Deps, record: ProjectRecord, commits: Commit[]): Promise<DiffStats[]> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  return Promise.all(
    commits.map((commit) => diffStats(repoPath, commit.parentIds[0] ?? EMPTY_TREE, commit.id)),
  );
}

export interface CommitDetail {
  commit: Commit;
  stats: DiffStats;
  /** The status of the commit's pipelines together (Ci::Pipeline.status), null while it has none. */
  status: string | null;
  /** Its newest pipeline (what v4 shows as last_pipeline). */
  lastPipeline: CiPipelineRow | null;
}

/** The commit any revision (sha, branch, tag) names, with what RepoCommitDetail and v4's CommitDetail show. */
export async function commitDetail(
  deps: Deps,
  record: ProjectRecord,
  revision: string,
): Promise<CommitDetail> {
  const { repoPath, commitId } = await requireCommitId(deps, record, revision);
  const commit = (await readCommits(repoPath, [commitId])).get(commitId);
  if (!commit) throw notFound('Commit');
  const [stats, pipelines, lastPipeline] = await Promise.all([
    diffStats(repoPath, commit.parentIds[0] ?? EMPTY_TREE, commit.id),
    pipelineStatusCounts(deps.db.kysely, record.project.id, commit.id),
    findLatestPipelineFor(deps.db.kysely, record.project.id, null, commit.id),
  ]);
  const status = compositeStatus(
    pipelines.map(({ status, count }) => ({
      status,
      count,
      allowFailure: false,
      when: 'on_success' as const,
    })),
  );
  return { commit, stats, status: status ?? null, lastPipeline: lastPipeline ?? null };
}

export async function commitDiff(deps: Deps, record: ProjectRecord, revision: string): Promise<FileDiff[]> {
  const { repoPath, commitId } = await requireCommitId(deps, record, revision);
  const commit = (await readCommits(repoPath, [commitId])).get(commitId)!;
  const { diffs } = await diffTrees(
    repoPath,
    commit.parentIds[0] ?? EMPTY_TREE,
    commitId,
    COMMIT_DIFF_LIMITS,
  );
  return diffs;
}

export interface CommitRef {
  type: 'branch' | 'tag';
  name: string;
}

/** The branches and tags whose history holds the commit (v4's GET …/commits/:sha/refs), by kind, then name. */
export async function commitRefs(
  deps: Deps,
  record: ProjectRecord,
  revision: string,
  type: 'branch' | 'tag' | 'all',
): Promise<CommitRef[]> {
  const { repoPath, commitId } = await requireCommitId(deps, record, revision);
  const namespaces =
    type === 'branch' ? ['refs/heads/'] : type === 'tag' ? ['refs/tags/'] : ['refs/heads/', 'refs/tags/'];
  const out = await git(
    ['for-each-ref', '--format=%(refname)', '--sort=refname', `--contains=${commitId}`, ...namespaces],
    { cwd: repoPath },
  );
  const refs = out
    .split('\n')
    .filter((line) => line !== '')
    .map((ref): CommitRef =>
      ref.startsWith('refs/heads/')
        ? { type: 'branch', name: ref.slice('refs/heads/'.length) }
        : { type: 'tag', name: ref.slice('refs/tags/'.length) },
    );
  return [...refs.filter((ref) => ref.type === 'branch'), ...refs.filter((ref) => ref.type === 'tag')];
}
