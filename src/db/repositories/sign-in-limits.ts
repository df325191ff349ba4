// The failed sign-in limiter's state (migration 025-web-sessions): failures per address within the
// window, and the addresses banned until a time.
import type { Executor } from '../types.ts';

export async function findBanUntil(db: Executor, address: string, at: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('sign_in_bans')
    .select('banned_until')
    .where('address', '=', address)
    .where('banned_until', '>', at)
    .executeTakeFirst();
  return row?.banned_until;
}

/** Records one failure, forgets the address's failures older than `since`, and counts the rest. */
export async function insertFailureAndCount(
  db: Executor,
  address: string,
  at: string,
  since: string,
): Promise<number> {
  await db.insertInto('sign_in_failures').values({ address, failed_at: at }).execute();
  await db
    .deleteFrom('sign_in_failures')
    .where('address', '=', address)
    .where('failed_at', '<=', since)
    .execute();
  const row = await db
    .selectFrom('sign_in_failures')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('address', '=', address)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function upsertBan(db: Executor, address: string, until: string): Promise<void> {
  await db
    .insertInto('sign_in_bans')
    .values({ address, banned_until: until })
    .onConflict((conflict) => conflict.column('address').doUpdateSet({ banned_until: until }))
    .execute();
  // The failures that earned the ban are spent: after it ends the address starts afresh.
  await db.deleteFrom('sign_in_failures').where('address', '=', address).execute();
}

export async function deleteEndedBans(db: Executor, at: string): Promise<void> {
  await db.deleteFrom('sign_in_bans').where('banned_until', '<=', at).execute();
}
