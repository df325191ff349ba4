// The current user: GET /user in the full form; with sudo also the private token, as GitLab 8.13.10 did.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadCurrentUser } from '../../views/user-views.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/user', async (request) => loadCurrentUser(deps, requireViewer(request), request.sudo));
}
