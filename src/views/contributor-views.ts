// GET …/repository/contributors: authors of the default branch (404 while the repository has none), in
// git's order, or sorted as v4's order_by and sort ask.
import type { Deps } from '../deps.ts';
import { contributors, type Contributor } from '../git/contributors.ts';
import { defaultRef, requireCommitId } from './repository-access.ts';
import type { ProjectRecord } from '../db/types.ts';

export interface ContributorOrder {
  orderBy: 'name' | 'email' | 'commits';
  sort: 'asc' | 'desc';
}

export async function repositoryContributors(
  deps: Deps,
  record: ProjectRecord,
  order?: ContributorOrder,
): Promise<Contributor[]> {
  const { repoPath, commitId } = await requireCommitId(deps, record, defaultRef(record), null);
  const list = await contributors(repoPath, commitId);
  if (!order) return list;
  const key = order.orderBy;
  const direction = order.sort === 'desc' ? -1 : 1;
  return list.sort((a, b) => {
    const compared =
      key === 'commits' ? a.commits - b.commits : a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0;
    return compared * direction;
  });
}
