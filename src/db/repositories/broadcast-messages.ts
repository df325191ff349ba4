// Broadcast messages: the administrators' list (by id) and the ones not yet ended, which every page
// reads. That read is a prepared shape whose only value is the current minute, so the read cache keeps
// its answer until a write or the next minute; the caller narrows it to the messages showing now.
import { prepared } from '../prepared.ts';
import type { Selectable, Updateable, Insertable } from 'kysely';
import type { BroadcastMessagesTable } from '../schema.ts';
import type { BroadcastMessageRow, Executor } from '../types.ts';

const notEnded = prepared<{ since: string }>()((db, slot) =>
  db
    .selectFrom('broadcast_messages')
    .selectAll()
    .where('ends_at', '>', slot('since'))
    .orderBy('ends_at')
    .orderBy('id')
    .limit(20),
);

/** Messages ending after `since` (at most 20, soonest ending first). */
export function findBroadcastMessagesEndingAfter(
  db: Executor,
  since: string,
): Promise<BroadcastMessageRow[]> {
  return notEnded.all(db, { since }) as Promise<BroadcastMessageRow[]>;
}

export function findBroadcastMessage(db: Executor, id: number): Promise<BroadcastMessageRow | undefined> {
  return db.selectFrom('broadcast_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countBroadcastMessages(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('broadcast_messages')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listBroadcastMessages(
  db: Executor,
  page: { offset: number; limit: number },
): Promise<Array<Selectable<BroadcastMessagesTable>>> {
  return db
    .selectFrom('broadcast_messages')
    .selectAll()
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function insertBroadcastMessage(
  db: Executor,
  values: Insertable<BroadcastMessagesTable>,
): Promise<BroadcastMessageRow> {
  return db.insertInto('broadcast_messages').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateBroadcastMessage(
  db: Executor,
  id: number,
  changes: Updateable<BroadcastMessagesTable>,
): Promise<BroadcastMessageRow | undefined> {
  return db
    .updateTable('broadcast_messages')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteBroadcastMessage(db: Executor, id: number): Promise<number> {
  const result = await db.deleteFrom('broadcast_messages').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}
