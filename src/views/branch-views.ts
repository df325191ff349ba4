// Branches as the API shows them: the refs from one for-each-ref, the protection from one indexed query
// of the project's rules, then the RepoBranch presenter.
import type { Deps } from '../deps.ts';
import { listProtectedBranches } from '../db/repositories/protected-branches.ts';
import { findBranch, listBranches } from '../git/refs.ts';
import { notFound } from '../errors.ts';
import { branchProtection } from '../policies/protected-branches.ts';
import { presentBranch } from '../presenters/api-v3/branch.ts';
import { projectRepositoryPath } from '../git/repository.ts';
import type { ProjectRecord } from '../db/types.ts';

/** Every branch, sorted by name (GitLab did not paginate them). */
export async function branchList(deps: Deps, record: ProjectRecord) {
  const [branches, rules] = await Promise.all([
    listBranches(projectRepositoryPath(deps.config.dataDir, record)),
    listProtectedBranches(deps.db.kysely, record.project.id),
  ]);
  return branches.map((branch) => presentBranch(branch, branchProtection(rules, branch.name)));
}

/** One branch by its exact name; 404 `Branch Not Found` when there is none. */
export async function loadBranchOr404(deps: Deps, record: ProjectRecord, name: string) {
  const [branch, rules] = await Promise.all([
    findBranch(projectRepositoryPath(deps.config.dataDir, record), name),
    listProtectedBranches(deps.db.kysely, record.project.id),
  ]);
  if (!branch) throw notFound('Branch');
  return presentBranch(branch, branchProtection(rules, branch.name));
}
