// Commits as GitLab 8.13's API showed them: RepoCommit (lists, compare), RepoCommitDetail (one commit,
// and the commit a commits-API write made), and the plain commit hash embedded in branches and tags.
import type { Commit } from '../../git/commits.ts';
import type { DiffStats } from '../../git/diffs.ts';
import { commitTitle } from '../../domain/titles.ts';

export function presentRepoCommit(commit: Commit) {
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 8),
    title: commitTitle(commit.message),
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    created_at: commit.committedDate,
    message: commit.message,
  };
}

/** `status` is the status of the commit's pipelines, null while it has none. */
export function presentRepoCommitDetail(commit: Commit, stats: DiffStats, status: string | null) {
  return Object.assign(presentRepoCommit(commit), {
    parent_ids: commit.parentIds,
    committed_date: commit.committedDate,
    authored_date: commit.authoredDate,
    stats: { additions: stats.additions, deletions: stats.deletions, total: stats.total },
    status,
  });
}

/** The commit as a raw hash (what RepoBranch and RepoTag embedded). */
export function presentCommitHash(commit: Commit) {
  return {
    id: commit.id,
    message: commit.message,
    parent_ids: commit.parentIds,
    authored_date: commit.authoredDate,
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    committed_date: commit.committedDate,
    committer_name: commit.committerName,
    committer_email: commit.committerEmail,
  };
}
