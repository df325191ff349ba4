// Branches as the API shows them: the refs from one for-each-ref, the protection from one indexed query
// of the project's rules. View models, so v3's RepoBranch and v4's Branch are built from the same read;
// v4's extra facts (merged, can_push) for a page of branches cost one more for-each-ref.
import type { Deps } from '../deps.ts';
import { findProtectedBranch, listProtectedBranches } from '../db/repositories/protected-branches.ts';
import { findBranch, listBranches, mergedBranchNames, type Branch } from '../git/refs.ts';
import { notFound, recordNotFound } from '../errors.ts';
import { branchProtection, type BranchProtection } from '../policies/protected-branches.ts';
import { canPushToBranch, pushRulesFrom } from '../policies/push-rules.ts';
import { pushAccessLevel } from '../policies/git-access.ts';
import { projectRepositoryPath } from '../git/repository.ts';
import type { ProtectedBranchRow, ProjectRecord } from '../db/types.ts';
import type { ProjectAccess } from '../policies/access.ts';
import { presentBranch } from '../presenters/api-v3/branch.ts';

export interface BranchView {
  branch: Branch;
  protection: BranchProtection;
}

/** What v4's Branch entity adds: merged into the default branch, and whether the caller may push. */
export interface BranchDetail extends BranchView {
  merged: boolean;
  canPush: boolean;
  isDefault: boolean;
}

/** Every branch, sorted by name (GitLab did not paginate them in v3), with its protection. */
export async function listBranchViews(deps: Deps, record: ProjectRecord): Promise<BranchView[]> {
  const [branches, rules] = await Promise.all([
    listBranches(projectRepositoryPath(deps.config.dataDir, record)),
    listProtectedBranches(deps.db.kysely, record.project.id),
  ]);
  return branches.map((branch) => ({ branch, protection: branchProtection(rules, branch.name) }));
}

/** Every branch in v3's RepoBranch shape, as the pages still read them (branches, settings, new MR). */
export async function branchList(deps: Deps, record: ProjectRecord) {
  return (await listBranchViews(deps, record)).map(presentBranch);
}

/** One branch by its exact name; 404 `Branch Not Found` when there is none. */
export async function loadBranchViewOr404(
  deps: Deps,
  record: ProjectRecord,
  name: string,
): Promise<BranchView> {
  const [branch, rules] = await Promise.all([
    findBranch(projectRepositoryPath(deps.config.dataDir, record), name),
    listProtectedBranches(deps.db.kysely, record.project.id),
  ]);
  if (!branch) throw notFound('Branch');
  return { branch, protection: branchProtection(rules, branch.name) };
}

/**
 * v4's facts for some branches of the project: which are merged into the default branch (one
 * for-each-ref --merged for them all) and which the caller may push to (the push rules, as git applies them).
 */
export async function branchDetails(
  deps: Deps,
  record: ProjectRecord & { access: ProjectAccess },
  views: BranchView[],
): Promise<BranchDetail[]> {
  if (views.length === 0) return [];
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const defaultBranch = record.project.default_branch ?? 'master';
  const [merged, rules] = await Promise.all([
    mergedBranchNames(repoPath, `refs/heads/${defaultBranch}`),
    listProtectedBranches(deps.db.kysely, record.project.id),
  ]);
  const pushRules = pushRulesFrom(pushAccessLevel(record.access), record.project.archived === 1, rules);
  // The repository has these branches, so it is not empty.
  const facts = { repositoryIsEmpty: () => false };
  return Promise.all(
    views.map(async (view) => ({
      ...view,
      // The default branch is not "merged" into itself.
      merged: view.branch.name !== defaultBranch && merged.has(view.branch.name),
      canPush: !pushRules.archived && (await canPushToBranch(pushRules, view.branch.name, facts)),
      isDefault: view.branch.name === defaultBranch,
    })),
  );
}

/** The project's protection rules (names and `*` patterns), by name. */
export function listProtectedBranchRules(deps: Deps, projectId: number): Promise<ProtectedBranchRow[]> {
  return listProtectedBranches(deps.db.kysely, projectId);
}

/** The rule of exactly this name (a pattern is matched as written); 404 `Not found` when none. */
export async function loadProtectedBranchRuleOr404(
  deps: Deps,
  projectId: number,
  name: string,
): Promise<ProtectedBranchRow> {
  const rule = await findProtectedBranch(deps.db.kysely, projectId, name);
  if (!rule) throw recordNotFound();
  return rule;
}
