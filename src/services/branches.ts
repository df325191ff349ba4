// Branches and their protection (reference/api-v3.md §7.4, README row 33): branches come from one
// for-each-ref, protection from one indexed query; protect/unprotect edit the rule with the branch's
// exact name (wildcard rules are left alone, as GitLab did).
import type { Deps } from '../deps.ts';
import { isUniqueViolation, now } from '../db/errors.ts';
import type { ProjectRecord } from '../db/repositories/projects.ts';
import {
  deleteProtectedBranch,
  findProtectedBranch,
  insertProtectedBranch,
  listProtectedBranches,
  updateProtectedBranch,
} from '../db/repositories/protected-branches.ts';
import { findBranch, listBranches, type Branch } from '../git/refs.ts';
import { repositoryPath } from '../git/repository.ts';
import { branchProtection, type BranchProtection } from '../policies/protected-branches.ts';

export interface BranchWithProtection {
  branch: Branch;
  protection: BranchProtection;
}

function repoOf(deps: Deps, record: ProjectRecord): string {
  return repositoryPath(deps.config.dataDir, record.namespace.path, record.project.path);
}

export async function projectBranches(deps: Deps, record: ProjectRecord): Promise<BranchWithProtection[]> {
  const [branches, rules] = await Promise.all([
    listBranches(repoOf(deps, record)),
    listProtectedBranches(deps.db.kysely, record.project.id),
  ]);
  return branches.map((branch) => ({ branch, protection: branchProtection(rules, branch.name) }));
}

export async function projectBranch(
  deps: Deps,
  record: ProjectRecord,
  name: string,
): Promise<BranchWithProtection | undefined> {
  const [branch, rules] = await Promise.all([
    findBranch(repoOf(deps, record), name),
    listProtectedBranches(deps.db.kysely, record.project.id),
  ]);
  return branch && { branch, protection: branchProtection(rules, branch.name) };
}

/**
 * Protects the branch by its exact name. Flags given as booleans set the rule; undefined leaves an
 * existing rule's flag as it is and makes a new rule master-only (GitLab 8.13.1's fixed behaviour).
 */
export async function protectBranch(
  deps: Deps,
  record: ProjectRecord,
  name: string,
  flags: { developersCanPush?: boolean; developersCanMerge?: boolean },
): Promise<void> {
  const db = deps.db.kysely;
  const at = now();
  const bit = (value: boolean) => (value ? 1 : 0) as 0 | 1;
  const update = async (id: number) => {
    const changes: Parameters<typeof updateProtectedBranch>[2] = { updated_at: at };
    if (flags.developersCanPush !== undefined) changes.developers_can_push = bit(flags.developersCanPush);
    if (flags.developersCanMerge !== undefined) changes.developers_can_merge = bit(flags.developersCanMerge);
    await updateProtectedBranch(db, id, changes);
  };
  const existing = await findProtectedBranch(db, record.project.id, name);
  if (existing) return update(existing.id);
  try {
    await insertProtectedBranch(db, {
      project_id: record.project.id,
      name,
      developers_can_push: bit(flags.developersCanPush ?? false),
      developers_can_merge: bit(flags.developersCanMerge ?? false),
      created_at: at,
      updated_at: at,
    });
  } catch (error) {
    // A concurrent protect created it first: apply the flags to that rule.
    if (!isUniqueViolation(error)) throw error;
    const raced = await findProtectedBranch(db, record.project.id, name);
    if (raced) await update(raced.id);
  }
}

export async function unprotectBranch(deps: Deps, record: ProjectRecord, name: string): Promise<void> {
  await deleteProtectedBranch(deps.db.kysely, record.project.id, name);
}
