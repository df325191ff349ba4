// Todos (GitLab 8.13's lib/api/todos.rb) as far as issues need them: mark an issue as a todo (201, or
// 304 when one is pending), the caller's todos (filters action, author_id, project_id, state, type;
// newest first, paginated; todoFilter serves v4 too), and marking one or all done (the latter answers a
// bare count).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadIssue, loadMergeRequestOf } from '../../http/loaders.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalString, pathInteger, presentString, requestParams, type Params } from '../../http/params.ts';
import { recordNotFound } from '../../errors.ts';
import { issueIssuable, markTodo } from '../../services/issues/issues.ts';
import { mergeRequestIssuable } from '../../services/merge-requests/collaboration.ts';
import { finishTodo, finishTodos } from '../../services/issues/todos.ts';
import {
  countTodoList,
  findTodoOfUser,
  loadTodoViews,
  todoListPage,
  type TodoListFilter,
} from '../../views/todo-views.ts';
import { presentTodo, TODO_ACTION_CODES } from '../../presenters/api-v3/todo.ts';
import type { UserRow } from '../../db/types.ts';

function idFilter(params: Params, name: string): number | undefined {
  const text = presentString(params, name)?.trim();
  if (text === undefined) return undefined;
  return /^\d{1,10}$/.test(text) ? Number(text) : -1;
}

export function todoFilter(viewer: UserRow, params: Params): TodoListFilter {
  const action = optionalString(params, 'action');
  const type = optionalString(params, 'type');
  return {
    userId: viewer.id,
    state: optionalString(params, 'state') === 'done' ? 'done' : 'pending',
    action: action === undefined ? undefined : (TODO_ACTION_CODES[action] ?? undefined),
    authorId: idFilter(params, 'author_id'),
    projectId: idFilter(params, 'project_id'),
    type: type === 'Issue' || type === 'MergeRequest' ? type : undefined,
  };
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  app.post('/projects/:id/issues/:issue_id/todo', async (request, reply) => {
    const viewer = requireViewer(request);
    const { issue } = await loadIssue(deps, request);
    const todo = await markTodo(deps, viewer, issueIssuable(issue));
    const [view] = await loadTodoViews(deps, viewer, [todo]);
    return reply.status(201).send(view && presentTodo(view, baseUrl));
  });

  app.post('/projects/:id/merge_requests/:merge_request_id/todo', async (request, reply) => {
    const { viewer, mr } = await loadMergeRequestOf(deps, request);
    const todo = await markTodo(deps, viewer, mergeRequestIssuable(mr));
    const [view] = await loadTodoViews(deps, viewer, [todo]);
    return reply.status(201).send(view && presentTodo(view, baseUrl));
  });

  app.get('/todos', async (request, reply) => {
    const viewer = requireViewer(request);
    const filter = todoFilter(viewer, requestParams(request));
    return paginate(
      request,
      reply,
      deps.config.externalUrl,
      () => countTodoList(deps, filter),
      async (page) =>
        (await todoListPage(deps, viewer, filter, page)).map((view) => presentTodo(view, baseUrl)),
    );
  });

  app.delete('/todos/:id', async (request) => {
    const viewer = requireViewer(request);
    const todo = await findTodoOfUser(deps, viewer.id, pathInteger(request.params as Params, 'id'));
    if (!todo) throw recordNotFound();
    const [view] = await loadTodoViews(deps, viewer, [await finishTodo(deps, todo)]);
    if (!view) throw recordNotFound();
    return presentTodo(view, baseUrl);
  });

  app.delete('/todos', async (request, reply) => {
    const viewer = requireViewer(request);
    const count = await finishTodos(deps, todoFilter(viewer, requestParams(request)));
    return reply.type('application/json').send(JSON.stringify(count));
  });
}
