// The webhook outbox (hook_deliveries) and the attempts made on each row (hook_delivery_attempts).
// Lists of a hook's deliveries go by the (hook_kind, hook_id, id) index; the worker's claim is one
// statement on the (status, next_attempt_at) index.
import type { Insertable } from 'kysely';
import type { Dialect } from '../connect.ts';
import type { HookDeliveryAttemptsTable, HookKind } from '../schema.ts';
import type { Executor, HookDeliveryAttemptRow, HookDeliveryRow, ProjectHookScope } from '../types.ts';
import { claimOutboxRows, releaseOutboxRows, type ClaimOptions } from './outbox-claims.ts';

interface NewDelivery {
  event: string;
  payload: string;
  at: string;
}

/** Which hooks an enqueue reaches: system hooks (optionally only those with a switch on), or a project's. */
export type HookSelection =
  | { kind: 'system'; only?: 'push_events' | 'tag_push_events' }
  | { kind: 'project'; projectId: number; scope: ProjectHookScope };

/** One outbox row per selected hook, in one INSERT … SELECT. */
export async function enqueueForHooks(
  db: Executor,
  hooks: HookSelection,
  delivery: NewDelivery,
): Promise<number> {
  let selected = db
    .selectFrom(hooks.kind === 'system' ? 'system_hooks' : 'project_hooks')
    .select((eb) => [
      eb.val<HookKind>(hooks.kind).as('hook_kind'),
      'id as hook_id',
      eb.val(delivery.event).as('event'),
      eb.val(delivery.payload).as('payload'),
      eb.val('pending').as('status'),
      eb.lit(0).as('attempts'),
      eb.val(delivery.at).as('next_attempt_at'),
      eb.val(delivery.at).as('created_at'),
      eb.val(delivery.at).as('updated_at'),
    ]);
  if (hooks.kind === 'project') {
    selected = selected.where('project_id', '=', hooks.projectId).where(hooks.scope, '=', 1);
  } else if (hooks.only) {
    selected = selected.where(hooks.only, '=', 1);
  }
  const result = await db
    .insertInto('hook_deliveries')
    .columns([
      'hook_kind',
      'hook_id',
      'event',
      'payload',
      'status',
      'attempts',
      'next_attempt_at',
      'created_at',
      'updated_at',
    ])
    .expression(selected)
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export function insertDelivery(
  db: Executor,
  kind: HookKind,
  hookId: number,
  delivery: NewDelivery,
): Promise<HookDeliveryRow> {
  return db
    .insertInto('hook_deliveries')
    .values({
      hook_kind: kind,
      hook_id: hookId,
      event: delivery.event,
      payload: delivery.payload,
      status: 'pending',
      attempts: 0,
      next_attempt_at: delivery.at,
      created_at: delivery.at,
      updated_at: delivery.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface DueCandidate {
  id: number;
  hook_kind: HookKind;
  hook_id: number;
}

/**
 * Oldest due deliveries, skipping hooks this worker already has enough in flight for (`${kind}:${id}`),
 * so a dead receiver's backlog never fills the worker. Unlocked: claimDeliveries settles races.
 */
export function dueDeliveries(
  db: Executor,
  now: string,
  limit: number,
  busyHooks: string[],
): Promise<DueCandidate[]> {
  const busy = { project: [] as number[], system: [] as number[] };
  for (const key of busyHooks) {
    const [kind, id] = key.split(':');
    busy[kind as HookKind].push(Number(id));
  }
  let due = db
    .selectFrom('hook_deliveries')
    .select(['id', 'hook_kind', 'hook_id'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now);
  for (const kind of ['project', 'system'] as const) {
    if (busy[kind].length > 0) {
      due = due.where((eb) => eb.not(eb.and([eb('hook_kind', '=', kind), eb('hook_id', 'in', busy[kind])])));
    }
  }
  return due.orderBy('next_attempt_at').orderBy('id').limit(limit).execute();
}

/** Claims those of `ids` that are still due, in one statement (outbox-claims.ts: one worker each). */
export function claimDeliveries(
  db: Executor,
  dialect: Dialect,
  ids: number[],
  options: ClaimOptions,
): Promise<HookDeliveryRow[]> {
  return claimOutboxRows<HookDeliveryRow>(db, dialect, 'hook_deliveries', ids, options);
}

/** Gives claims back untried (the worker is stopping): due again at once, no attempt counted. */
export function releaseDeliveries(db: Executor, ids: number[], workerId: string, at: string): Promise<void> {
  return releaseOutboxRows(db, 'hook_deliveries', ids, workerId, at);
}

export interface DeliveryOutcome {
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  at: string;
}

/**
 * Records one attempt and the delivery's new state. The state only changes while this worker still holds
 * the claim; the attempt is recorded either way, because it happened.
 */
export async function recordDeliveryAttempt(
  db: Executor,
  delivery: HookDeliveryRow,
  workerId: string,
  outcome: DeliveryOutcome,
  attempt: Omit<Insertable<HookDeliveryAttemptsTable>, 'delivery_id' | 'worker'>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('hook_deliveries')
      .set({
        status: outcome.status,
        attempts: outcome.attempts,
        next_attempt_at: outcome.nextAttemptAt,
        locked_by: null,
        locked_until: null,
        updated_at: outcome.at,
      })
      .where('id', '=', delivery.id)
      .where('locked_by', '=', workerId)
      .execute();
    // Nothing to record against when the hook (and with it the delivery) was deleted meanwhile.
    await trx
      .insertInto('hook_delivery_attempts')
      .columns(['delivery_id', 'attempted_at', 'status_code', 'error', 'duration_ms', 'worker'])
      .expression(
        trx
          .selectFrom('hook_deliveries')
          .select((eb) => [
            'id',
            eb.val(attempt.attempted_at).as('attempted_at'),
            eb.val(attempt.status_code ?? null).as('status_code'),
            eb.val(attempt.error ?? null).as('error'),
            eb.val(attempt.duration_ms).as('duration_ms'),
            eb.val(workerId).as('worker'),
          ])
          .where('id', '=', delivery.id),
      )
      .execute();
  });
}

/** A claimed delivery whose hook is gone: nothing to send it to. */
export async function dropDelivery(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('hook_deliveries').where('id', '=', id).execute();
}

export async function deleteDeliveriesOfHook(db: Executor, kind: HookKind, hookId: number): Promise<void> {
  await db
    .deleteFrom('hook_deliveries')
    .where('hook_kind', '=', kind)
    .where('hook_id', '=', hookId)
    .execute();
}

export async function countDeliveriesOfHook(db: Executor, kind: HookKind, hookId: number): Promise<number> {
  const row = await db
    .selectFrom('hook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('hook_kind', '=', kind)
    .where('hook_id', '=', hookId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Newest first. */
export function listDeliveriesOfHook(
  db: Executor,
  kind: HookKind,
  hookId: number,
  page: { limit: number; offset: number },
): Promise<HookDeliveryRow[]> {
  return db
    .selectFrom('hook_deliveries')
    .selectAll()
    .where('hook_kind', '=', kind)
    .where('hook_id', '=', hookId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function findDeliveryOfHook(
  db: Executor,
  kind: HookKind,
  hookId: number,
  id: number,
): Promise<HookDeliveryRow | undefined> {
  return db
    .selectFrom('hook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .where('hook_kind', '=', kind)
    .where('hook_id', '=', hookId)
    .executeTakeFirst();
}

/** Attempts of many deliveries at once (one query per page), oldest first per delivery. */
export async function attemptsByDelivery(
  db: Executor,
  deliveryIds: number[],
): Promise<Map<number, HookDeliveryAttemptRow[]>> {
  const byDelivery = new Map<number, HookDeliveryAttemptRow[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db
    .selectFrom('hook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = byDelivery.get(row.delivery_id) ?? [];
    list.push(row);
    byDelivery.set(row.delivery_id, list);
  }
  return byDelivery;
}

/**
 * Deletes up to `limit` finished deliveries (and, by cascade, their attempts) that finished before
 * `before`; a finished row's next_attempt_at is when it finished, so this is a range on the due index.
 */
export async function pruneFinishedDeliveries(db: Executor, before: string, limit: number): Promise<number> {
  const old = db
    .selectFrom('hook_deliveries')
    .select('id')
    .where('status', 'in', ['delivered', 'failed'])
    .where('next_attempt_at', '<', before)
    .limit(limit);
  const result = await db.deleteFrom('hook_deliveries').where('id', 'in', old).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Due work left (tests and the benchmark wait on it; the worker does not need it). */
export async function countPendingDeliveries(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('hook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
