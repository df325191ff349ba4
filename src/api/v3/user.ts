// The current user: GET /user (UserFull; with sudo also the private token, as 8.13.10 did).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadUserFullExtras } from '../../services/users.ts';
import { presentUserFull, presentUserLogin } from '../../presenters/user.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/user', async (request) => {
    const viewer = requireViewer(request);
    const extras = await loadUserFullExtras(deps, viewer.id);
    return request.sudo
      ? presentUserLogin(viewer, deps.config.externalUrl, extras)
      : presentUserFull(viewer, deps.config.externalUrl, extras);
  });
}
