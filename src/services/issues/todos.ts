// Marking todos done (GitLab 8.13's lib/api/todos.rb): one of the caller's, or every pending one that
// matches the list's filters.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { markTodoDone, markTodosDone, type TodoListFilter } from '../../db/repositories/todos.ts';
import type { TodoRow } from '../../db/types.ts';

export function finishTodo(deps: Deps, todo: TodoRow): Promise<TodoRow> {
  return markTodoDone(deps.db.kysely, todo.id, now()).then((row) => row ?? { ...todo, state: 'done' });
}

export function finishTodos(deps: Deps, filter: TodoListFilter): Promise<number> {
  return markTodosDone(deps.db.kysely, { ...filter, state: 'pending' }, now());
}
