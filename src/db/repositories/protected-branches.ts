// Protected-branch rules of a project; every query is on (project_id, name).
import type { Executor } from '../types.ts';
import type { ProtectedBranchRow } from '../types.ts';

export function listProtectedBranches(db: Executor, projectId: number): Promise<ProtectedBranchRow[]> {
  return db
    .selectFrom('protected_branches')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('name')
    .execute();
}

export function findProtectedBranch(
  db: Executor,
  projectId: number,
  name: string,
): Promise<ProtectedBranchRow | undefined> {
  return db
    .selectFrom('protected_branches')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function insertProtectedBranch(
  db: Executor,
  row: Omit<ProtectedBranchRow, 'id'>,
): Promise<void> {
  await db.insertInto('protected_branches').values(row).execute();
}

export async function updateProtectedBranch(
  db: Executor,
  id: number,
  changes: Partial<Pick<ProtectedBranchRow, 'developers_can_push' | 'developers_can_merge' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('protected_branches').set(changes).where('id', '=', id).execute();
}

export async function deleteProtectedBranch(db: Executor, projectId: number, name: string): Promise<void> {
  await db
    .deleteFrom('protected_branches')
    .where('project_id', '=', projectId)
    .where('name', '=', name)
    .execute();
}

/** Adds a rule unless one with that exact name exists (a concurrent protect may have made it first). */
export async function insertProtectedBranchIfMissing(
  db: Executor,
  row: Omit<ProtectedBranchRow, 'id'>,
): Promise<void> {
  await db
    .insertInto('protected_branches')
    .values(row)
    .onConflict((conflict) => conflict.columns(['project_id', 'name']).doNothing())
    .execute();
}
