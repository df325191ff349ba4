// RepoBranch (reference/api-v3.md §6.5): the branch, its commit as GitLab's raw commit hash, and the
// protection flags.
import type { Branch } from '../git/refs.ts';
import type { BranchProtection } from '../policies/protected-branches.ts';

export function presentBranch(branch: Branch, protection: BranchProtection) {
  const { commit } = branch;
  return {
    name: branch.name,
    commit: {
      id: commit.id,
      message: commit.message,
      parent_ids: commit.parentIds,
      authored_date: commit.authoredDate,
      author_name: commit.authorName,
      author_email: commit.authorEmail,
      committed_date: commit.committedDate,
      committer_name: commit.committerName,
      committer_email: commit.committerEmail,
    },
    protected: protection.protected,
    developers_can_push: protection.developersCanPush,
    developers_can_merge: protection.developersCanMerge,
  };
}
