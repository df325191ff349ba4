// Subscriptions of users to issues and labels (merge requests later): one row per (subscribable, user).
import { sql } from 'kysely';
import type { Executor } from '../types.ts';

export interface Subscribable {
  type: string;
  id: number;
  /** Null only for a group label subscribed on its group. */
  projectId: number | null;
}

/** The user's explicit choice: true, false, or undefined when there is no row. */
export async function findSubscription(
  db: Executor,
  subscribable: Subscribable,
  userId: number,
): Promise<boolean | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .select('subscribed')
    .where('subscribable_type', '=', subscribable.type)
    .where('subscribable_id', '=', subscribable.id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row === undefined ? undefined : row.subscribed === 1;
}

/** Explicit choices of one user on several subscribables of one type. */
export async function subscriptionsOf(
  db: Executor,
  type: string,
  ids: number[],
  userId: number,
): Promise<Map<number, boolean>> {
  const result = new Map<number, boolean>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom('subscriptions')
    .select(['subscribable_id', 'subscribed'])
    .where('subscribable_type', '=', type)
    .where('subscribable_id', 'in', ids)
    .where('user_id', '=', userId)
    .execute();
  for (const row of rows) result.set(row.subscribable_id, row.subscribed === 1);
  return result;
}

export async function setSubscription(
  db: Executor,
  subscribable: Subscribable,
  userId: number,
  subscribed: boolean,
  at: string,
): Promise<void> {
  const value = subscribed ? 1 : 0;
  await db
    .insertInto('subscriptions')
    .values({
      project_id: subscribable.projectId,
      user_id: userId,
      subscribable_type: subscribable.type,
      subscribable_id: subscribable.id,
      subscribed: value,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) =>
      oc
        .columns(['subscribable_type', 'subscribable_id', 'user_id'])
        .doUpdateSet({ subscribed: sql`${value}`, updated_at: at }),
    )
    .execute();
}
