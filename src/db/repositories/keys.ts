// SSH keys. Lists use keys_user_id (user_id, id); the global uniqueness of a fingerprint is the
// keys_fingerprint unique index, so a concurrent duplicate fails the insert rather than slipping in.
import type { Insertable } from 'kysely';
import type { KeysTable } from '../schema.ts';
import type { Executor, KeyRow } from '../types.ts';
import { sha256Fingerprint } from '../../lib/ssh-key-fingerprint.ts';

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

/** Inserts a key; its SHA-256 fingerprint is derived from its text here, for every kind of key. */
export function insertKey(
  db: Executor,
  values: Omit<Insertable<KeysTable>, 'fingerprint_sha256'>,
): Promise<KeyRow> {
  return db
    .insertInto('keys')
    .values({ ...values, fingerprint_sha256: sha256Fingerprint(values.key) })
    .returningAll()
    .executeTakeFirstOrThrow();
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

/** The key, personal or deploy, whose SHA-256 fingerprint (unpadded base64) this is: keys_fingerprint_sha256. */
export function findKeyBySha256Fingerprint(db: Executor, fingerprint: string): Promise<KeyRow | undefined> {
  return db
    .selectFrom('keys')
    .selectAll()
    .where('fingerprint_sha256', '=', fingerprint)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}
