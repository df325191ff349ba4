// Password-reset links: made by the forgot-password form, used once by the reset form.
import type { Executor } from '../types.ts';

export async function insertPasswordReset(
  db: Executor,
  values: { userId: number; tokenHash: string; expiresAt: string; at: string },
): Promise<number> {
  const row = await db
    .insertInto('password_resets')
    .values({
      user_id: values.userId,
      token_hash: values.tokenHash,
      expires_at: values.expiresAt,
      used_at: null,
      created_at: values.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The user of a live (unused, unexpired) link, or undefined. */
export async function findLiveReset(db: Executor, tokenHash: string, at: string) {
  return db
    .selectFrom('password_resets')
    .select(['id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
}

/** Uses a link: true for the one caller that found it live (a second use changes nothing). */
export async function useReset(db: Executor, id: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Every other live link of the user ends with a reset (Devise cleared reset_password_token). */
export async function endResetsOfUser(db: Executor, userId: number, at: string): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
