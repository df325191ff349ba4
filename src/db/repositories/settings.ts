// Application settings: one row per key (the table exists since the first migration).
import { sql } from 'kysely';
import type { Dialect } from '../connect.ts';
import type { Executor } from '../types.ts';

export async function findSetting(db: Executor, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Stores `value` unless the key has one; answers the value stored afterwards. */
export async function insertSettingIfAbsent(db: Executor, key: string, value: string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  return (await findSetting(db, key))!;
}

/**
 * Serializes a read-then-write of settings across processes for the rest of the transaction (PostgreSQL
 * advisory lock; SQLite has a single writer and one Labrador process per file).
 */
export async function lockSettings(trx: Executor, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres')
    await sql`select pg_advisory_xact_lock(hashtext('labrador settings'))`.execute(trx);
}

/** Stores `value` under the key, replacing any value it had. */
export async function replaceSetting(db: Executor, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
    .execute();
}
