// Project hooks; lists go by the (project_id, id) index.
import type { Insertable, Updateable } from 'kysely';
import type { ProjectHooksTable } from '../schema.ts';
import type { Executor, ProjectHookRow, ProjectHookScope } from '../types.ts';

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

/** The hooks of a batch of deliveries (the worker reads a hook when its delivery is sent). */
export function projectHooksByIds(db: Executor, ids: number[]): Promise<ProjectHookRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('project_hooks').selectAll().where('id', 'in', ids).execute();
}

/** Which of the given switches any hook of the project has on (one read; CI skips payloads nobody gets). */
export async function projectHookSwitchesOn(
  db: Executor,
  projectId: number,
  scopes: ProjectHookScope[],
): Promise<Set<ProjectHookScope>> {
  const rows = await db
    .selectFrom('project_hooks')
    .select(scopes)
    .where('project_id', '=', projectId)
    .execute();
  return new Set(scopes.filter((scope) => rows.some((row) => (row as Record<string, unknown>)[scope] === 1)));
}
