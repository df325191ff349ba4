// v4's Branch entity (GitLab's lib/api/entities/branch.rb), with the Commit entity of commit.ts.
import { presentCommit } from './commit.ts';
import type { ProjectRecord } from '../../db/types.ts';
import type { BranchDetail } from '../../views/branch-views.ts';
import { treeWebUrl } from '../../domain/paths.ts';

export function presentBranch(detail: BranchDetail, record: ProjectRecord, baseUrl: string) {
  const { branch, protection } = detail;
  return {
    name: branch.name,
    commit: presentCommit(branch.commit, record, baseUrl),
    merged: detail.merged,
    protected: protection.protected,
    developers_can_push: protection.developersCanPush,
    developers_can_merge: protection.developersCanMerge,
    can_push: detail.canPush,
    default: detail.isDefault,
    web_url: treeWebUrl(baseUrl, record, branch.name),
  };
}
