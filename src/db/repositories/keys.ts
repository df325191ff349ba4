// SSH keys. Lists use keys_user_id (user_id, id); the global uniqueness of a fingerprint is the
// keys_fingerprint unique index, so a concurrent duplicate fails the insert rather than slipping in.
import type { Insertable } from 'kysely';
import type { KeysTable } from '../schema.ts';
import type { Executor, KeyRow } from '../types.ts';

export function keysOfUser(db: Executor, userId: number): Promise<KeyRow[]> {
  return db.selectFrom('keys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export function findKeyById(db: Executor, id: number): Promise<KeyRow | undefined> {
  return db.selectFrom('keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findKeyOfUser(db: Executor, userId: number, id: number): Promise<KeyRow | undefined> {
  return db
    .selectFrom('keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function isFingerprintTaken(db: Executor, fingerprint: string): Promise<boolean> {
  const row = await db
    .selectFrom('keys')
    .select('id')
    .where('fingerprint', '=', fingerprint)
    .executeTakeFirst();
  return row !== undefined;
}

export function insertKey(db: Executor, values: Insertable<KeysTable>): Promise<KeyRow> {
  return db.insertInto('keys').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Deletes one key of the user and returns the row as it was, or undefined when there was none. */
export function deleteKeyOfUser(db: Executor, userId: number, id: number): Promise<KeyRow | undefined> {
  return db
    .deleteFrom('keys')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteKeysOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('keys').where('user_id', '=', userId).execute();
}

/** Up to `limit` keys, personal and deploy, with ids above `afterId` (a walk of the primary key). */
export function keysAfter(db: Executor, afterId: number, limit: number): Promise<KeyRow[]> {
  return db.selectFrom('keys').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
}
