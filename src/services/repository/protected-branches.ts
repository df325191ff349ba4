// Protecting and unprotecting a branch: the rule with the branch's exact name is written or removed
// (wildcard rules are left alone, as GitLab did).
import type { Deps } from '../../deps.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { now } from '../../lib/clock.ts';
import {
  deleteProtectedBranch,
  findProtectedBranch,
  insertProtectedBranch,
  updateProtectedBranch,
} from '../../db/repositories/protected-branches.ts';
import { findBranch } from '../../git/refs.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { conflict, notFound, recordNotFound, reloaded } from '../../errors.ts';
import type { ProjectRecord, ProtectedBranchRow } from '../../db/types.ts';

/** Protection rules are kept for branches that exist: 404 `Branch Not Found` otherwise. */
async function requireBranch(deps: Deps, record: ProjectRecord, name: string): Promise<void> {
  if (!(await findBranch(projectRepositoryPath(deps.config.dataDir, record), name))) throw notFound('Branch');
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
  await requireBranch(deps, record, name);
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
  await requireBranch(deps, record, name);
  await deleteProtectedBranch(deps.db.kysely, record.project.id, name);
}

/**
 * v4's POST /protected_branches: a rule for a name or a `*` pattern, whether or not a branch has it yet;
 * 409 when the project has a rule of that name (also when a concurrent request made it first).
 */
export async function addProtectedBranchRule(
  deps: Deps,
  record: ProjectRecord,
  name: string,
  flags: { developersCanPush: boolean; developersCanMerge: boolean },
): Promise<ProtectedBranchRow> {
  const db = deps.db.kysely;
  const exists = () => conflict(`Protected branch '${name}' already exists`);
  if (await findProtectedBranch(db, record.project.id, name)) throw exists();
  const at = now();
  try {
    await insertProtectedBranch(db, {
      project_id: record.project.id,
      name,
      developers_can_push: flags.developersCanPush ? 1 : 0,
      developers_can_merge: flags.developersCanMerge ? 1 : 0,
      created_at: at,
      updated_at: at,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw exists();
    throw error;
  }
  return reloaded(await findProtectedBranch(db, record.project.id, name));
}

/** v4's DELETE /protected_branches/:name: the rule of exactly that name; 404 `Not found` when none. */
export async function removeProtectedBranchRule(
  deps: Deps,
  record: ProjectRecord,
  name: string,
): Promise<void> {
  const db = deps.db.kysely;
  if (!(await findProtectedBranch(db, record.project.id, name))) throw recordNotFound();
  await deleteProtectedBranch(db, record.project.id, name);
}
