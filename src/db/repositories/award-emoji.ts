// Award emoji on an awardable (an issue or a note; merge requests and snippets later).
import type { Insertable } from 'kysely';
import type { Database } from '../schema.ts';
import type { AwardEmojiRow, Executor } from '../types.ts';

export async function countAwards(db: Executor, awardableType: string, awardableId: number): Promise<number> {
  const row = await db
    .selectFrom('award_emoji')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('awardable_type', '=', awardableType)
    .where('awardable_id', '=', awardableId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listAwards(
  db: Executor,
  awardableType: string,
  awardableId: number,
  limit: number,
  offset: number,
): Promise<AwardEmojiRow[]> {
  return db
    .selectFrom('award_emoji')
    .selectAll()
    .where('awardable_type', '=', awardableType)
    .where('awardable_id', '=', awardableId)
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** The awards `userId` gave this awardable (a few at most: one per emoji name). */
export function listUserAwards(
  db: Executor,
  awardableType: string,
  awardableId: number,
  userId: number,
): Promise<AwardEmojiRow[]> {
  return db
    .selectFrom('award_emoji')
    .selectAll()
    .where('awardable_type', '=', awardableType)
    .where('awardable_id', '=', awardableId)
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

export function findAward(
  db: Executor,
  awardableType: string,
  awardableId: number,
  id: number,
): Promise<AwardEmojiRow | undefined> {
  return db
    .selectFrom('award_emoji')
    .selectAll()
    .where('awardable_type', '=', awardableType)
    .where('awardable_id', '=', awardableId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function insertAward(
  db: Executor,
  values: Insertable<Database['award_emoji']>,
): Promise<AwardEmojiRow> {
  return db.insertInto('award_emoji').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function deleteAward(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('award_emoji').where('id', '=', id).execute();
}
