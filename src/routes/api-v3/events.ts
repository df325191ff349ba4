// Activity: GET /projects/:id/events and GET /users/:id/events, newest first, paginated. A user's events
// are limited to projects the caller can see.
import type { FastifyInstance } from 'fastify';
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

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const present = (view: EventView) => presentEvent(view.event, view, baseUrl);

  app.get('/projects/:id/events', async (request, reply) => {
    const { project } = await loadProject(deps, request);
    return paginate(
      request,
      reply,
      baseUrl,
      () => countProjectEventList(deps, project.id),
      async (page) => (await listProjectEventsPage(deps, project.id, page)).map(present),
    );
  });

  app.get<{ Params: { id: string } }>('/users/:id/events', async (request, reply) => {
    const viewer = requireViewer(request);
    const user = await findUserByIdParam(deps, request.params.id);
    if (!user) throw notFound('User');
    return paginate(
      request,
      reply,
      baseUrl,
      () => countUserEventList(deps, viewer, user.id),
      async (page) => (await listUserEventsPage(deps, viewer, user.id, page)).map(present),
    );
  });
}
