// The current user: GET /user in the full form; with sudo also the private token, as GitLab 8.13.10 did.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadCurrentUser } from '../../views/user-views.ts';
import { presentUserFull, presentUserLogin } from '../../presenters/api-v3/user.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/user', async (request) => {
    const { user, extras } = await loadCurrentUser(deps, requireViewer(request));
    const present = request.sudo ? presentUserLogin : presentUserFull;
    return present(user, deps.config.externalUrl, extras);
  });
}
