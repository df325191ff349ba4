// Claims of project creates on repository directories (see migration 011): a row per create in progress.
import type { Executor, RepositoryCreationRow } from '../types.ts';

export async function insertRepositoryCreation(
  db: Executor,
  row: { token: string; disk_path: string; created_at: string },
): Promise<void> {
  await db.insertInto('repository_creations').values(row).execute();
}

export function findRepositoryCreation(
  db: Executor,
  token: string,
): Promise<RepositoryCreationRow | undefined> {
  return db.selectFrom('repository_creations').selectAll().where('token', '=', token).executeTakeFirst();
}

export async function deleteRepositoryCreation(db: Executor, token: string): Promise<void> {
  await db.deleteFrom('repository_creations').where('token', '=', token).execute();
}
