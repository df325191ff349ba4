// The pushes log: a row per receive-pack request, pending until its events are recorded. A pending row's
// applied_changes is null until its refs are settled (services/push.ts), then holds that settlement.
import type { Executor } from '../types.ts';
import type { PushRow } from '../types.ts';

export async function insertPendingPush(
  db: Executor,
  row: { project_id: number; user_id: number | null; changes: string; created_at: string; ci_skip?: 0 | 1 },
): Promise<number> {
  const inserted = await db
    .insertInto('pushes')
    .values({ ...row, status: 'pending', applied_changes: null, processed_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export function findPush(db: Executor, id: number): Promise<PushRow | undefined> {
  return db.selectFrom('pushes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Pending pushes, oldest first (served by the partial index pushes_pending). */
export function listPendingPushes(db: Executor, afterId: number, limit: number): Promise<PushRow[]> {
  return db
    .selectFrom('pushes')
    .selectAll()
    .where('status', '=', 'pending')
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Claims a pending push inside the processing transaction: true for exactly one caller, however many
 * processes race (the row lock on PostgreSQL, the single writer on SQLite).
 */
export async function markPushProcessed(
  db: Executor,
  id: number,
  appliedChanges: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('pushes')
    .set({ status: 'processed', applied_changes: appliedChanges, processed_at: at })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records, while the push is still pending, what happened to its refs (settlePush): true for the one
 * caller that records it first. processPush overwrites it with the applied changes when it finishes.
 */
export async function markPushSettled(db: Executor, id: number, settled: string): Promise<boolean> {
  const result = await db
    .updateTable('pushes')
    .set({ applied_changes: settled })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('applied_changes', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
