// System hooks: a handful of rows, read whole (the API does not paginate them).
import type { Insertable } from 'kysely';
import type { SystemHooksTable } from '../schema.ts';
import type { Executor, SystemHookRow } from '../types.ts';

/** Whether any system hook exists: announcements skip building payloads (and their reads) when none do. */
export async function anySystemHook(db: Executor): Promise<boolean> {
  const row = await db.selectFrom('system_hooks').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export function insertSystemHook(db: Executor, values: Insertable<SystemHooksTable>): Promise<SystemHookRow> {
  return db.insertInto('system_hooks').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Every system hook, oldest first. */
export function listSystemHooks(db: Executor): Promise<SystemHookRow[]> {
  return db.selectFrom('system_hooks').selectAll().orderBy('id').execute();
}

export function findSystemHook(db: Executor, id: number): Promise<SystemHookRow | undefined> {
  return db.selectFrom('system_hooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteSystemHook(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('system_hooks').where('id', '=', id).execute();
}

/** The hooks of a batch of deliveries (the worker reads a hook when its delivery is sent). */
export function systemHooksByIds(db: Executor, ids: number[]): Promise<SystemHookRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('system_hooks').selectAll().where('id', 'in', ids).execute();
}
