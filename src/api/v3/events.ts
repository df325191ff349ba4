// Activity: GET /projects/:id/events and GET /users/:id/events (reference/internals.md §3.2), newest
// first, paginated. A user's events are limited to projects the caller can see (README row 41).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import { notFound } from '../../http/errors.ts';
import { pathId } from '../../http/params.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { presentEventPage } from '../../services/event-views.ts';
import {
  countProjectEventList,
  countUserEventList,
  pageProjectEvents,
  pageUserEvents,
} from '../../services/events.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  app.get('/projects/:id/events', async (request, reply) => {
    const loaded = await loadProject(deps, request);
    const events = await paginate(
      request,
      reply,
      baseUrl,
      () => countProjectEventList(deps, loaded.project.id),
      (page) => pageProjectEvents(deps, loaded.project.id, page),
    );
    return presentEventPage(deps, events);
  });

  app.get('/users/:id/events', async (request, reply) => {
    const viewer = requireViewer(request);
    const id = pathId((request.params as { id: string }).id);
    const user = id === undefined ? undefined : await findUserById(deps.db.kysely, id);
    if (!user) throw notFound('User');
    const visibility = { viewerId: viewer.id, admin: viewer.admin === 1, external: viewer.external === 1 };
    const events = await paginate(
      request,
      reply,
      baseUrl,
      () => countUserEventList(deps, user.id, visibility),
      (page) => pageUserEvents(deps, user.id, visibility, page),
    );
    return presentEventPage(deps, events);
  });
}
