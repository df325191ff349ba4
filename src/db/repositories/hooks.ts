// Project hooks, system hooks and the delivery outbox. Lists go by (parent, id) indexes; the worker's claim
// is one statement on the (status, next_attempt_at) index.
import { type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Dialect } from '../connect.ts';
import type {
  HookDeliveriesTable,
  HookDeliveryAttemptsTable,
  HookKind,
  ProjectHooksTable,
  SystemHooksTable,
} from '../schema.ts';
import type { Executor } from './users.ts';

export type ProjectHookRow = Selectable<ProjectHooksTable>;
export type SystemHookRow = Selectable<SystemHooksTable>;
export type HookDeliveryRow = Selectable<HookDeliveriesTable>;
export type HookDeliveryAttemptRow = Selectable<HookDeliveryAttemptsTable>;

/** The event switches of a project hook, which are also its delivery scopes. */
export type ProjectHookScope =
  | 'push_events'
  | 'tag_push_events'
  | 'issues_events'
  | 'confidential_issues_events'
  | 'merge_requests_events'
  | 'note_events'
  | 'build_events'
  | 'pipeline_events'
  | 'wiki_page_events';

// ---- system hooks

/** Whether any system hook exists: announcements skip building payloads (and their reads) when none do. */
export async function anySystemHook(db: Executor): Promise<boolean> {
  const row = await db.selectFrom('system_hooks').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

/** A user's memberships and keys, for the events GitLab sent when the user was deleted. */
export function membershipsOfUser(db: Executor, userId: number) {
  return db.selectFrom('members').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export function keysOfUser(db: Executor, userId: number) {
  return db.selectFrom('keys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export function membersOfSource(db: Executor, sourceType: 'Project' | 'Namespace', sourceId: number) {
  return db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select([
      'members.access_level',
      'members.created_at',
      'members.updated_at',
      'users.id as user_id',
      'users.name',
      'users.username',
      'users.email',
    ])
    .where('members.source_type', '=', sourceType)
    .where('members.source_id', '=', sourceId)
    .orderBy('members.id')
    .execute();
}

export function insertSystemHook(db: Executor, values: Insertable<SystemHooksTable>): Promise<SystemHookRow> {
  return db.insertInto('system_hooks').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Every system hook (the API does not paginate them; there are a handful). */
export function listSystemHooks(db: Executor): Promise<SystemHookRow[]> {
  return db.selectFrom('system_hooks').selectAll().orderBy('id').execute();
}

export function findSystemHook(db: Executor, id: number): Promise<SystemHookRow | undefined> {
  return db.selectFrom('system_hooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteSystemHook(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('system_hooks').where('id', '=', id).execute();
}

// ---- project hooks

export function insertProjectHook(
  db: Executor,
  values: Insertable<ProjectHooksTable>,
): Promise<ProjectHookRow> {
  return db.insertInto('project_hooks').values(values).returningAll().executeTakeFirstOrThrow();
}

export function findProjectHook(
  db: Executor,
  projectId: number,
  hookId: number,
): Promise<ProjectHookRow | undefined> {
  return db
    .selectFrom('project_hooks')
    .selectAll()
    .where('id', '=', hookId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

export async function countProjectHooks(db: Executor, projectId: number): Promise<number> {
  const row = await db
    .selectFrom('project_hooks')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listProjectHooks(
  db: Executor,
  projectId: number,
  page: { limit: number; offset: number },
): Promise<ProjectHookRow[]> {
  return db
    .selectFrom('project_hooks')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function updateProjectHook(
  db: Executor,
  id: number,
  values: Updateable<ProjectHooksTable>,
): Promise<ProjectHookRow> {
  return db
    .updateTable('project_hooks')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteProjectHook(db: Executor, projectId: number, hookId: number): Promise<void> {
  await db.deleteFrom('project_hooks').where('id', '=', hookId).where('project_id', '=', projectId).execute();
}

/** A project's hooks and their outbox rows, when the project itself goes. */
export async function deleteProjectHooks(db: Executor, projectId: number): Promise<void> {
  const ids = db.selectFrom('project_hooks').select('id').where('project_id', '=', projectId);
  await db
    .deleteFrom('hook_deliveries')
    .where('hook_kind', '=', 'project')
    .where('hook_id', 'in', ids)
    .execute();
  await db.deleteFrom('project_hooks').where('project_id', '=', projectId).execute();
}

// ---- the outbox

// The columns both enqueue statements fill from their hook selects, in the selects' order.
const DELIVERY_COLUMNS = [
  'hook_kind',
  'hook_id',
  'event',
  'payload',
  'status',
  'attempts',
  'next_attempt_at',
  'created_at',
  'updated_at',
] as const;

interface NewDelivery {
  event: string;
  payload: string;
  at: string;
}

/** One outbox row per system hook (optionally only those with a push/tag push switch on), one statement. */
export async function enqueueForSystemHooks(
  db: Executor,
  delivery: NewDelivery,
  only?: 'push_events' | 'tag_push_events',
): Promise<number> {
  let hooks = db
    .selectFrom('system_hooks')
    .select((eb) => [
      eb.val<HookKind>('system').as('hook_kind'),
      'id as hook_id',
      eb.val(delivery.event).as('event'),
      eb.val(delivery.payload).as('payload'),
      eb.val('pending').as('status'),
      eb.lit(0).as('attempts'),
      eb.val(delivery.at).as('next_attempt_at'),
      eb.val(delivery.at).as('created_at'),
      eb.val(delivery.at).as('updated_at'),
    ]);
  if (only) hooks = hooks.where(only, '=', 1);
  const result = await db
    .insertInto('hook_deliveries')
    .columns([...DELIVERY_COLUMNS])
    .expression(hooks)
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** One outbox row per hook of the project whose `scope` switch is on, one statement. */
export async function enqueueForProjectHooks(
  db: Executor,
  projectId: number,
  scope: ProjectHookScope,
  delivery: NewDelivery,
): Promise<number> {
  const hooks = db
    .selectFrom('project_hooks')
    .select((eb) => [
      eb.val<HookKind>('project').as('hook_kind'),
      'id as hook_id',
      eb.val(delivery.event).as('event'),
      eb.val(delivery.payload).as('payload'),
      eb.val('pending').as('status'),
      eb.lit(0).as('attempts'),
      eb.val(delivery.at).as('next_attempt_at'),
      eb.val(delivery.at).as('created_at'),
      eb.val(delivery.at).as('updated_at'),
    ])
    .where('project_id', '=', projectId)
    .where(scope, '=', 1);
  const result = await db
    .insertInto('hook_deliveries')
    .columns([...DELIVERY_COLUMNS])
    .expression(hooks)
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

export interface ClaimOptions {
  workerId: string;
  now: string;
  /** End of the lease: the row becomes due again then if this worker never reports back. */
  leaseUntil: string;
}

/**
 * Claims those of `ids` that are still due, in one statement. PostgreSQL skips rows another worker is
 * claiming at this moment (FOR UPDATE SKIP LOCKED) and re-checks the rest, so a row is claimed by one
 * worker only; SQLite has a single writer, so the statement is atomic there.
 */
export function claimDeliveries(
  db: Executor,
  dialect: Dialect,
  ids: number[],
  options: ClaimOptions,
): Promise<HookDeliveryRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  let claimable = db
    .selectFrom('hook_deliveries')
    .select('id')
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', options.now);
  if (dialect === 'postgres') claimable = claimable.forUpdate().skipLocked();
  return db
    .updateTable('hook_deliveries')
    .set({
      locked_by: options.workerId,
      locked_until: options.leaseUntil,
      next_attempt_at: options.leaseUntil,
      updated_at: options.now,
    })
    .where('id', 'in', claimable)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', options.now)
    .returningAll()
    .execute();
}

/** Gives claims back untried (the worker is stopping): due again at once, no attempt counted. */
export async function releaseDeliveries(
  db: Executor,
  ids: number[],
  workerId: string,
  at: string,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('hook_deliveries')
    .set({ locked_by: null, locked_until: null, next_attempt_at: at, updated_at: at })
    .where('id', 'in', ids)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'pending')
    .execute();
}

export function projectHooksByIds(db: Executor, ids: number[]): Promise<ProjectHookRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('project_hooks').selectAll().where('id', 'in', ids).execute();
}

export function systemHooksByIds(db: Executor, ids: number[]): Promise<SystemHookRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('system_hooks').selectAll().where('id', 'in', ids).execute();
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
