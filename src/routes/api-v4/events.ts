// v4's events (lib/api/events.rb): the caller's own (GET /events), a project's, a user's (GET
// /users/:id/events; limited to projects the caller can see), newest first, paginated, in v4's Event
// entity. Over v3's event views; v4's filters (action, target_type, before, after, sort) are not read yet.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import { presentEvent } from '../../presenters/api-v4/event.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const present = (views: EventView[]) => views.map((view) => presentEvent(view, baseUrl));

  app.get('/projects/:id/events', async (request, reply) => {
    const { project } = await loadProject(deps, request);
    return paginate(
      request,
      reply,
      baseUrl,
      () => countProjectEventList(deps, project.id),
      async (page) => present(await listProjectEventsPage(deps, project.id, page)),
    );
  });

  const userEvents = (request: FastifyRequest, reply: FastifyReply, authorId: number) => {
    const viewer = requireViewer(request);
    return paginate(
      request,
      reply,
      baseUrl,
      () => countUserEventList(deps, viewer, authorId),
      async (page) => present(await listUserEventsPage(deps, viewer, authorId, page)),
    );
  };

  app.get('/events', async (request, reply) => userEvents(request, reply, requireViewer(request).id));

  app.get<{ Params: { id: string } }>('/users/:id/events', async (request, reply) => {
    requireViewer(request);
    const user = await findUserByIdParam(deps, request.params.id);
    if (!user) throw notFound('User');
    return userEvents(request, reply, user.id);
  });
}
