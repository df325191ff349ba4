// Todos of issues and merge requests: a new pending one, and marking them done (GitLab 8.13's
// lib/api/todos.rb): one of the caller's, or every pending one that matches the list's filters.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { insertTodo, markTodoDone, markTodosDone, type TodoListFilter } from '../../db/repositories/todos.ts';
import type { TodoAction } from '../../domain/types.ts';
import type { Executor, TodoRow, UserRow } from '../../db/types.ts';

/** A pending todo for `userId` about an issue or merge request, made by `author`. */
export function insertPendingTodo(
  trx: Executor,
  todo: {
    userId: number;
    target: { type: string; id: number; projectId: number };
    author: UserRow;
    action: TodoAction;
    at: string;
  },
): Promise<TodoRow> {
  return insertTodo(trx, {
    user_id: todo.userId,
    project_id: todo.target.projectId,
    target_type: todo.target.type,
    target_id: todo.target.id,
    author_id: todo.author.id,
    note_id: null,
    action: todo.action,
    state: 'pending',
    created_at: todo.at,
    updated_at: todo.at,
  });
}

export function finishTodo(deps: Deps, todo: TodoRow): Promise<TodoRow> {
  return markTodoDone(deps.db.kysely, todo.id, now()).then((row) => row ?? { ...todo, state: 'done' });
}

export function finishTodos(deps: Deps, filter: TodoListFilter): Promise<number> {
  return markTodosDone(deps.db.kysely, { ...filter, state: 'pending' }, now());
}
