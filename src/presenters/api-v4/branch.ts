// v4's Branch entity (GitLab's lib/api/entities/branch.rb) and the Commit entity it and Tag embed.
import type { Commit } from '../../git/commits.ts';
import type { ProjectRecord } from '../../db/types.ts';
import type { BranchDetail } from '../../views/branch-views.ts';
import { commitWebUrl, treeWebUrl } from '../../domain/paths.ts';

/** Entities::Commit: `title` is the whole first line (full_title), `created_at` the committer's date. */
export function presentBranchCommit(commit: Commit, record: ProjectRecord, baseUrl: string) {
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 8),
    created_at: commit.committedDate,
    parent_ids: commit.parentIds,
    title: commit.message.split('\n', 1)[0],
    message: commit.message,
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    authored_date: commit.authoredDate,
    committer_name: commit.committerName,
    committer_email: commit.committerEmail,
    committed_date: commit.committedDate,
    trailers: {},
    extended_trailers: {},
    web_url: commitWebUrl(baseUrl, record, commit.id),
  };
}

export function presentBranch(detail: BranchDetail, record: ProjectRecord, baseUrl: string) {
  const { branch, protection } = detail;
  return {
    name: branch.name,
    commit: presentBranchCommit(branch.commit, record, baseUrl),
    merged: detail.merged,
    protected: protection.protected,
    developers_can_push: protection.developersCanPush,
    developers_can_merge: protection.developersCanMerge,
    can_push: detail.canPush,
    default: detail.isDefault,
    web_url: treeWebUrl(baseUrl, record, branch.name),
  };
}
