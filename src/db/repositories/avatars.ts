// The avatar column of a user, a project or a group (a namespace row): the stored file's name, or null.
import type { AvatarOwner } from '../../domain/paths.ts';
import type { Dialect } from '../connect.ts';
import type { Executor } from '../types.ts';

/**
 * The name the owner's row holds now (null: none), undefined when there is no such row. Inside a
 * transaction the row stays locked until it ends on PostgreSQL (SQLite already has a single writer), so
 * the name read is the one a following updateAvatarName replaces.
 */
export async function lockAvatarName(
  db: Executor,
  dialect: Dialect,
  owner: AvatarOwner,
  id: number,
): Promise<string | null | undefined> {
  const table = owner === 'user' ? 'users' : owner === 'project' ? 'projects' : 'namespaces';
  let query = db.selectFrom(table).select('avatar').where('id', '=', id);
  if (dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? row.avatar : undefined;
}

/** Names `avatar` (null: none) on the owner's row. */
export async function updateAvatarName(
  db: Executor,
  owner: AvatarOwner,
  id: number,
  avatar: string | null,
  at: string,
): Promise<void> {
  if (owner === 'user') {
    await db.updateTable('users').set({ avatar, updated_at: at }).where('id', '=', id).execute();
  } else if (owner === 'project') {
    await db.updateTable('projects').set({ avatar }).where('id', '=', id).execute();
  } else {
    await db.updateTable('namespaces').set({ avatar, updated_at: at }).where('id', '=', id).execute();
  }
}
