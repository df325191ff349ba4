// The mail outbox (mails): rows written by services in the transaction of the change they tell about,
// claimed and sent by the worker. Claims are outbox-claims.ts's, as the hook outbox's: one statement on
// the (status, next_attempt_at) index; on PostgreSQL FOR UPDATE SKIP LOCKED keeps two processes from
// claiming one row.
import type { Insertable } from 'kysely';
import type { Dialect } from '../connect.ts';
import type { MailsTable } from '../schema.ts';
import type { Executor, MailEventRow, MailRow } from '../types.ts';
import { claimOutboxRows, dueOutboxIds, type ClaimOptions } from './outbox-claims.ts';

export type NewMail = Omit<
  Insertable<MailsTable>,
  'id' | 'status' | 'attempts' | 'locked_by' | 'locked_until' | 'last_error' | 'sent_at'
>;

/** All recipients' rows of one event in one INSERT; a (event_key, user_id) already queued is skipped. */
export async function insertMails(db: Executor, mails: NewMail[]): Promise<number> {
  if (mails.length === 0) return 0;
  const result = await db
    .insertInto('mails')
    .values(mails.map((mail) => ({ ...mail, status: 'pending', attempts: 0 })))
    .onConflict((oc) => oc.columns(['event_key', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? mails.length);
}

export function dueMailIds(db: Executor, now: string, limit: number): Promise<Array<{ id: number }>> {
  return dueOutboxIds(db, 'mails', now, limit);
}

/** Claims those of `ids` that are still due, in one statement (outbox-claims.ts: one worker each). */
export function claimMails(
  db: Executor,
  dialect: Dialect,
  ids: number[],
  options: ClaimOptions,
): Promise<MailRow[]> {
  return claimOutboxRows<MailRow>(db, dialect, 'mails', ids, options);
}

/** The outcome of one attempt, only while this worker still holds the claim. */
export async function recordMailAttempt(
  db: Executor,
  id: number,
  workerId: string,
  outcome: {
    status: 'pending' | 'sent' | 'failed';
    attempts: number;
    nextAttemptAt: string;
    error: string | null;
    at: string;
  },
): Promise<void> {
  await db
    .updateTable('mails')
    .set({
      status: outcome.status,
      attempts: outcome.attempts,
      next_attempt_at: outcome.nextAttemptAt,
      last_error: outcome.error,
      sent_at: outcome.status === 'sent' ? outcome.at : null,
      locked_by: null,
      locked_until: null,
      updated_at: outcome.at,
    })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .execute();
}

export async function countPendingMails(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('mails')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findMailByReplyKey(db: Executor, replyKey: string): Promise<MailRow | undefined> {
  return db.selectFrom('mails').selectAll().where('reply_key', '=', replyKey).executeTakeFirst();
}

/** One event row, in the request's transaction. */
export async function insertMailEvent(db: Executor, payload: string, at: string): Promise<void> {
  await db
    .insertInto('mail_events')
    .values({ payload, status: 'pending', attempts: 0, next_attempt_at: at, created_at: at, updated_at: at })
    .execute();
}

/** Claims up to `limit` due events as claimMails claims mails; the claim leaves updated_at alone. */
export async function claimMailEvents(
  db: Executor,
  dialect: Dialect,
  limit: number,
  options: ClaimOptions,
): Promise<MailEventRow[]> {
  const due = await dueOutboxIds(db, 'mail_events', options.now, limit);
  return claimOutboxRows<MailEventRow>(
    db,
    dialect,
    'mail_events',
    due.map((row) => row.id),
    options,
    false,
  );
}

/** Marks an event expanded (inside the transaction that wrote its mails), if this worker still holds it. */
export async function finishMailEvent(
  db: Executor,
  id: number,
  workerId: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('mail_events')
    .set({ status: 'expanded', locked_by: null, locked_until: null, updated_at: at })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** An expansion that failed: due again after `retryAt`. */
export async function retryMailEvent(
  db: Executor,
  id: number,
  workerId: string,
  retryAt: string,
): Promise<void> {
  await db
    .updateTable('mail_events')
    .set((eb) => ({
      locked_by: null,
      locked_until: null,
      next_attempt_at: retryAt,
      attempts: eb('attempts', '+', 1),
      updated_at: retryAt,
    }))
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .execute();
}

export async function countPendingMailEvents(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('mail_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
