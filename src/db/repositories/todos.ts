// A user's todos, walked by (user_id, state, id) newest first.
import type { Insertable } from 'kysely';
import type { Database } from '../schema.ts';
import type { Executor, TodoRow } from '../types.ts';

export interface TodoListFilter {
  userId: number;
  state: 'pending' | 'done';
  action?: number;
  authorId?: number;
  projectId?: number;
  type?: string;
  /** Only todos of projects the user can still see (undefined: all). */
  projectIds?: number[];
}

function filtered(db: Executor, filter: TodoListFilter) {
  let query = db.selectFrom('todos').where('user_id', '=', filter.userId).where('state', '=', filter.state);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.authorId !== undefined) query = query.where('author_id', '=', filter.authorId);
  if (filter.projectId !== undefined) query = query.where('project_id', '=', filter.projectId);
  if (filter.type !== undefined) query = query.where('target_type', '=', filter.type);
  if (filter.projectIds !== undefined)
    query = query.where('project_id', 'in', filter.projectIds.length > 0 ? filter.projectIds : [-1]);
  return query;
}

export async function countTodos(db: Executor, filter: TodoListFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listTodos(
  db: Executor,
  filter: TodoListFilter,
  limit: number,
  offset: number,
): Promise<TodoRow[]> {
  return filtered(db, filter).selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

/** Marks the matching pending todos done; how many. */
export async function markTodosDone(db: Executor, filter: TodoListFilter, at: string): Promise<number> {
  const ids = filtered(db, filter).select('id');
  const result = await db
    .updateTable('todos')
    .set({ state: 'done', updated_at: at })
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function findUserTodo(db: Executor, userId: number, id: number): Promise<TodoRow | undefined> {
  return db
    .selectFrom('todos')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function markTodoDone(db: Executor, id: number, at: string): Promise<TodoRow | undefined> {
  return db
    .updateTable('todos')
    .set({ state: 'done', updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function findPendingTodo(
  db: Executor,
  userId: number,
  targetType: string,
  targetId: number,
): Promise<TodoRow | undefined> {
  return db
    .selectFrom('todos')
    .selectAll()
    .where('target_type', '=', targetType)
    .where('target_id', '=', targetId)
    .where('user_id', '=', userId)
    .where('state', '=', 'pending')
    .executeTakeFirst();
}

export function insertTodo(db: Executor, values: Insertable<Database['todos']>): Promise<TodoRow> {
  return db.insertInto('todos').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Pending todos of a target for everyone, done (the issue was closed). */
export async function markTargetTodosDone(
  db: Executor,
  targetType: string,
  targetId: number,
  at: string,
): Promise<void> {
  await db
    .updateTable('todos')
    .set({ state: 'done', updated_at: at })
    .where('target_type', '=', targetType)
    .where('target_id', '=', targetId)
    .where('state', '=', 'pending')
    .execute();
}
