// v4's todos (lib/api/todos.rb): mark an issue or merge request by iid as a todo (201, or 304 when one
// is pending), the caller's todos with v3's filters (action, author_id, project_id, state, type; newest
// first, paginated) in v4's Todo entity, and marking one done (`POST /todos/:id/mark_as_done`, 201 with
// the todo) or all of them (`POST /todos/mark_as_done`, 204).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { pathInteger, requestParams, type Params } from '../../http/params.ts';
import { recordNotFound } from '../../errors.ts';
import { markTodo } from '../../services/issues/issues.ts';
import { finishTodo, finishTodos } from '../../services/issues/todos.ts';
import { countTodoList, findTodoOfUser, loadTodoViews, todoListPage } from '../../views/todo-views.ts';
import { issueClosings, mergeRequestClosings } from '../../views/issuable-closings.ts';
import { presentTodoV4 } from '../../presenters/api-v4/todo.ts';
import type { TodoView } from '../../presenters/api-v3/todo.ts';
import type { TodoRow, UserRow } from '../../db/types.ts';
import { todoFilter } from '../api-v3/todos.ts';
import { NOTEABLE_PARENTS } from './noteables.ts';
import { noContent } from './conventions.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const present = async (views: TodoView[]) => {
    const targets = views.map((view) => view.target);
    const [issues, mergeRequests] = await Promise.all([
      issueClosings(
        deps,
        targets.flatMap((target) => (target.type === 'Issue' ? [target.view.issue] : [])),
      ),
      mergeRequestClosings(
        deps,
        targets.flatMap((target) => (target.type === 'MergeRequest' ? [target.view.mr] : [])),
      ),
    ]);
    return views.map((view) => presentTodoV4(view, { issues, mergeRequests }, baseUrl));
  };
  const presentOne = async (viewer: UserRow, todo: TodoRow) => {
    const [view] = await loadTodoViews(deps, viewer, [todo]);
    if (!view) throw recordNotFound();
    return (await present([view]))[0]!;
  };

  for (const parent of NOTEABLE_PARENTS) {
    app.post(`${parent.base}/todo`, async (request, reply) => {
      const viewer = requireViewer(request);
      const found = await parent.load(deps, request);
      const todo = await markTodo(deps, viewer, found.issuable);
      return reply.status(201).send(await presentOne(viewer, todo));
    });
  }

  app.get('/todos', async (request, reply) => {
    const viewer = requireViewer(request);
    const filter = todoFilter(viewer, requestParams(request));
    return paginate(
      request,
      reply,
      baseUrl,
      () => countTodoList(deps, filter),
      async (page) => present(await todoListPage(deps, viewer, filter, page)),
    );
  });

  app.post('/todos/:id/mark_as_done', async (request, reply) => {
    const viewer = requireViewer(request);
    const todo = await findTodoOfUser(deps, viewer.id, pathInteger(request.params as Params, 'id'));
    if (!todo) throw recordNotFound();
    return reply.status(201).send(await presentOne(viewer, await finishTodo(deps, todo)));
  });

  app.post('/todos/mark_as_done', async (request, reply) => {
    const viewer = requireViewer(request);
    await finishTodos(deps, todoFilter(viewer, {}));
    return noContent(reply);
  });
}
