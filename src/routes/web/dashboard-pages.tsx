// The signed-in person's dashboards at GitLab 8.13's paths: /dashboard/issues and /dashboard/merge_requests
// (assigned to the viewer unless `author_id` or `assignee_id` names someone, state tabs, across every
// project whose issues or merge requests the viewer may read), /dashboard/todos (pending todos, "Done"
// and "Mark all as done" through the todo services, as DELETE /todos does) and /dashboard/activity
// (events of the viewer's projects). A signed-out visitor is sent to sign in.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import type { Deps } from '../../deps.ts';
import { optionalString, pathId, requestParams } from '../../http/params.ts';
import { notFound } from '../../errors.ts';
import type { UserRow } from '../../db/types.ts';
import {
  dashboardActivity,
  dashboardIssues,
  dashboardMergeRequests,
  type DashboardPerson,
  type PageWindow,
} from '../../views/dashboard-views.ts';
import { ISSUE_TABS } from '../../views/issue-pages.ts';
import { MERGE_REQUEST_TABS } from '../../views/merge-request-pages.ts';
import { TAB_COUNT_CAP } from '../../views/tab-counts.ts';
import { countTodoList, findTodoOfUser, todoListPage } from '../../views/todo-views.ts';
import { presentTodo } from '../../presenters/api-v3/todo.ts';
import { finishTodo, finishTodos } from '../../services/issues/todos.ts';
import {
  ActivityPage,
  DashboardIssuesPage,
  DashboardMergeRequestsPage,
  TodosPage,
  type DashboardFilter,
} from '../../presenters/html/dashboard.tsx';
import type { PageContext } from '../../presenters/html/layout.tsx';
import { pageContext } from './web-session.ts';
import { redirectToSignIn, sendPage } from './render.ts';
import { pageNumber } from './paging.ts';
import { doneNotice } from './form-errors.ts';
import { signedIn } from './page-params.ts';

const PER_PAGE = 20;

const TODO_NOTICES: Record<string, string> = {
  todo: 'The todo was marked as done.',
  all: 'Every pending todo was marked as done.',
};

/** 8.13's filter: `author_id` or `assignee_id` names the person; by default the viewer's assigned rows. */
function personFilter(request: FastifyRequest, viewer: UserRow): DashboardFilter {
  const params = requestParams(request);
  const id = (name: string) => {
    const text = optionalString(params, name)?.trim();
    return text && /^\d{1,9}$/.test(text) ? Number(text) : undefined;
  };
  const author = id('author_id');
  if (author !== undefined) return { role: 'author', userId: author, viewerId: viewer.id };
  return { role: 'assignee', userId: id('assignee_id') ?? viewer.id, viewerId: viewer.id };
}

function personOf(filter: DashboardFilter): DashboardPerson {
  return filter.role === 'author' ? { authorId: filter.userId } : { assigneeId: filter.userId };
}

function stateOf<T extends string>(request: FastifyRequest, states: readonly T[]): T {
  const state = optionalString(requestParams(request), 'state');
  return states.includes(state as T) ? (state as T) : states[0]!;
}

export function registerDashboardPages(web: FastifyInstance, deps: Deps): void {
  /** The page for a signed-in viewer; a signed-out visitor is asked to sign in and comes back. */
  const forViewer =
    (handler: (request: FastifyRequest, reply: FastifyReply, viewer: UserRow) => Promise<FastifyReply>) =>
    async (request: FastifyRequest, reply: FastifyReply) =>
      request.viewer ? handler(request, reply, request.viewer) : redirectToSignIn(reply, request.url);

  /** One person's issues or merge requests: the state tab asked for (else the first), a page of it. */
  const personList = <T extends string, V>(
    states: readonly T[],
    load: (deps: Deps, viewer: UserRow, person: DashboardPerson, state: T, window: PageWindow) => Promise<V>,
    render: (shown: { ctx: PageContext; filter: DashboardFilter; state: T; page: number }, view: V) => VNode,
  ) =>
    forViewer(async (request, reply, viewer) => {
      const filter = personFilter(request, viewer);
      const state = stateOf(request, states);
      const page = pageNumber(request);
      const view = await load(deps, viewer, personOf(filter), state, {
        limit: PER_PAGE,
        offset: (page - 1) * PER_PAGE,
      });
      return sendPage(reply, render({ ctx: pageContext(deps, request, reply), filter, state, page }, view));
    });

  web.get(
    '/dashboard/issues',
    personList(ISSUE_TABS, dashboardIssues, (shown, view) => (
      <DashboardIssuesPage
        {...shown}
        counts={view.counts}
        cap={TAB_COUNT_CAP}
        issues={view.issues}
        hasNext={view.hasNext}
      />
    )),
  );

  web.get(
    '/dashboard/merge_requests',
    personList(MERGE_REQUEST_TABS, dashboardMergeRequests, (shown, view) => (
      <DashboardMergeRequestsPage
        {...shown}
        counts={view.counts}
        mergeRequests={view.mergeRequests}
        hasNext={view.hasNext}
      />
    )),
  );

  web.get(
    '/dashboard/todos',
    forViewer(async (request, reply, viewer) => {
      const page = pageNumber(request);
      const filter = { userId: viewer.id, state: 'pending' as const };
      const [total, todos] = await Promise.all([
        countTodoList(deps, filter),
        todoListPage(deps, viewer, filter, {
          page,
          perPage: PER_PAGE,
          limit: PER_PAGE,
          offset: (page - 1) * PER_PAGE,
        }).then((views) => views.map((view) => presentTodo(view, deps.config.externalUrl))),
      ]);
      return sendPage(
        reply,
        <TodosPage
          ctx={pageContext(deps, request, reply)}
          flash={doneNotice(request, TODO_NOTICES)}
          todos={todos}
          total={total}
          page={page}
          hasNext={page * PER_PAGE < total}
        />,
      );
    }),
  );

  web.post('/dashboard/todos/:id/delete', async (request, reply) => {
    const viewer = signedIn(request);
    const id = pathId((request.params as { id: string }).id);
    const todo = id === undefined ? undefined : await findTodoOfUser(deps, viewer.id, id);
    if (!todo) throw notFound('Todo');
    await finishTodo(deps, todo);
    return reply.redirect('/dashboard/todos?done=todo', 302);
  });

  web.post('/dashboard/todos/destroy_all', async (request, reply) => {
    const viewer = signedIn(request);
    await finishTodos(deps, { userId: viewer.id, state: 'pending' });
    return reply.redirect('/dashboard/todos?done=all', 302);
  });

  web.get(
    '/dashboard/activity',
    forViewer(async (request, reply, viewer) => {
      const page = pageNumber(request);
      const view = await dashboardActivity(deps, viewer, {
        limit: PER_PAGE,
        offset: (page - 1) * PER_PAGE,
      });
      return sendPage(
        reply,
        <ActivityPage
          ctx={pageContext(deps, request, reply)}
          events={view.events}
          page={page}
          hasNext={view.hasNext}
        />,
      );
    }),
  );
}
