// The claim and lease of the outboxes (hook_deliveries, mails, mail_events): a row is `pending` and due
// at `next_attempt_at`; a worker claims it by writing its id in `locked_by` and pushing `next_attempt_at`
// to the end of its lease, so a claim never reported back (a crash) is due again when the lease ends.
// The claim is one UPDATE over a sub-select that re-checks the row is still pending and due. PostgreSQL
// skips rows another worker is claiming at this moment (FOR UPDATE SKIP LOCKED) and re-checks the rest,
// so a row is claimed by one worker only, however many servers share the database; SQLite has a single
// writer, so the statement is atomic there.
import type { Kysely } from 'kysely';
import type { Dialect } from '../connect.ts';
import type { Executor } from '../types.ts';

type OutboxTable = 'hook_deliveries' | 'mails' | 'mail_events';

/** The columns every outbox has, which are all that claiming and releasing touch. */
interface LeaseColumns {
  id: number;
  status: string;
  next_attempt_at: string;
  locked_by: string | null;
  locked_until: string | null;
  updated_at: string;
}

/** The outbox tables seen through their common columns (their names and those columns are real). */
const leased = (db: Executor) => db as unknown as Kysely<Record<OutboxTable, LeaseColumns>>;

export interface ClaimOptions {
  workerId: string;
  now: string;
  /** End of the lease: the row becomes due again then if this worker never reports back. */
  leaseUntil: string;
}

/** Up to `limit` ids of the table's due rows, the longest due first (the (status, next_attempt_at) index). */
export function dueOutboxIds(
  db: Executor,
  table: 'mails' | 'mail_events',
  now: string,
  limit: number,
): Promise<Array<{ id: number }>> {
  return leased(db)
    .selectFrom(table)
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Claims those of `ids` that are still due, in one statement, and answers the claimed rows (`Row`: the
 * table's). `stamp`: whether the claim also sets updated_at (mail events keep theirs for the outcome).
 */
export async function claimOutboxRows<Row>(
  db: Executor,
  dialect: Dialect,
  table: OutboxTable,
  ids: number[],
  options: ClaimOptions,
  stamp = true,
): Promise<Row[]> {
  if (ids.length === 0) return [];
  const outbox = leased(db);
  let claimable = outbox
    .selectFrom(table)
    .select('id')
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', options.now);
  if (dialect === 'postgres') claimable = claimable.forUpdate().skipLocked();
  const rows = await outbox
    .updateTable(table)
    .set({
      locked_by: options.workerId,
      locked_until: options.leaseUntil,
      next_attempt_at: options.leaseUntil,
      ...(stamp ? { updated_at: options.now } : {}),
    })
    .where('id', 'in', claimable)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', options.now)
    .returningAll()
    .execute();
  return rows as Row[];
}

/** Gives this worker's claims back untried (it is stopping): due again at `at`, no attempt counted. */
export async function releaseOutboxRows(
  db: Executor,
  table: OutboxTable,
  ids: number[],
  workerId: string,
  at: string,
): Promise<void> {
  if (ids.length === 0) return;
  await leased(db)
    .updateTable(table)
    .set({ locked_by: null, locked_until: null, next_attempt_at: at, updated_at: at })
    .where('id', 'in', ids)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'pending')
    .execute();
}
