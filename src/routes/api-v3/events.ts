// Activity: GET /projects/:id/events and GET /users/:id/events, newest first, paginated. A user's events
// are limited to projects the caller can see.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EventFilter } from '../../db/repositories/events.ts';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { findUserByIdParam, loadProject } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import { notFound } from '../../errors.ts';
import {
  countProjectEventList,
  countUserEventList,
  listProjectEventsPage,
  listUserEventsPage,
  type EventView,
} from '../../views/event-views.ts';
import { presentEvent } from '../../presenters/api-v3/event.ts';

/**
 * The event lists of both versions, each with its Event presenter: a project's, and a user's at each
 * path (`own`: the caller's, as v4's GET /events; else the user of the `:id`). `readFilter` (v4's) reads
 * the list's filters before anything is loaded, as Grape validates first; without it every event shows.
 */
export function registerEventLists(
  app: FastifyInstance,
  deps: Deps,
  present: (view: EventView) => unknown,
  userPaths: { path: string; own: boolean }[],
  readFilter?: (request: FastifyRequest) => EventFilter,
): void {
  const baseUrl = deps.config.externalUrl;

  app.get('/projects/:id/events', async (request, reply) => {
    const filter = readFilter?.(request);
    const { project } = await loadProject(deps, request);
    return paginate(
      request,
      reply,
      baseUrl,
      () => countProjectEventList(deps, project.id, filter),
      async (page) => (await listProjectEventsPage(deps, project.id, page, filter)).map(present),
    );
  });

  for (const { path, own } of userPaths) {
    app.get<{ Params: { id?: string } }>(path, async (request, reply) => {
      const viewer = requireViewer(request);
      const filter = readFilter?.(request);
      const user = own ? viewer : await findUserByIdParam(deps, request.params.id);
      if (!user) throw notFound('User');
      return paginate(
        request,
        reply,
        baseUrl,
        () => countUserEventList(deps, viewer, user.id, filter),
        async (page) => (await listUserEventsPage(deps, viewer, user.id, page, filter)).map(present),
      );
    });
  }
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  registerEventLists(app, deps, (view) => presentEvent(view.event, view, baseUrl), [
    { path: '/users/:id/events', own: false },
  ]);
}
