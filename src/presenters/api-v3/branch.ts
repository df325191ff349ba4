// GitLab's RepoBranch entity: the branch, its commit as GitLab's raw commit hash, and the protection
// flags.
import type { BranchView } from '../../views/branch-views.ts';
import { presentCommitHash } from './commit.ts';

export function presentBranch({ branch, protection }: BranchView) {
  return {
    name: branch.name,
    commit: presentCommitHash(branch.commit),
    protected: protection.protected,
    developers_can_push: protection.developersCanPush,
    developers_can_merge: protection.developersCanMerge,
  };
}

/** DELETE …/repository/branches/:branch: the deleted branch's name. */
export function presentDeletedBranch(name: string) {
  return { branch_name: name };
}
