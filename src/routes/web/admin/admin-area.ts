// /admin…, GitLab 8.13's admin area, in its own scope inside the pages' scope (so sessions, form tokens,
// headers and error pages are the same): a signed-out visitor is sent to sign in, a signed-in user who is
// not an administrator gets 404, as 8.13 answered (the area's existence is not advertised).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { notFound } from '../../../errors.ts';
import { isAdministrator } from '../../../policies/users.ts';
import { redirectToSignIn } from '../render.ts';
import { registerAdminOverview } from './overview.tsx';
import { registerAdminUsers } from './users.tsx';
import { registerAdminProjects } from './projects.tsx';
import { registerAdminRunners } from './runners.tsx';
import { registerAdminHooks } from './hooks.tsx';
import { registerAdminBroadcastMessages } from './broadcast-messages.tsx';

export function registerAdminArea(web: FastifyInstance, deps: Deps): void {
  web.register(async (admin) => {
    admin.addHook('preHandler', async (request, reply) => {
      // A post comes back to the area's start: its form would need filling in again anyway.
      if (!request.viewer) return redirectToSignIn(reply, request.method === 'GET' ? request.url : '/admin');
      if (!isAdministrator(request.viewer)) throw notFound();
    });
    registerAdminOverview(admin, deps);
    registerAdminUsers(admin, deps);
    registerAdminProjects(admin, deps);
    registerAdminRunners(admin, deps);
    registerAdminHooks(admin, deps);
    registerAdminBroadcastMessages(admin, deps);
  });
}
