// v4's events (lib/api/events.rb): the caller's own (GET /events), a project's, a user's (GET
// /users/:id/events; limited to projects the caller can see), newest first, paginated, in v4's Event
// entity: v3's routes with v4's presenter. v4's filters (action, target_type, before, after, sort) are
// not read yet.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { presentEvent } from '../../presenters/api-v4/event.ts';
import { registerEventLists } from '../api-v3/events.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  registerEventLists(app, deps, (view) => presentEvent(view, baseUrl), [
    { path: '/events', own: true },
    { path: '/users/:id/events', own: false },
  ]);
}
