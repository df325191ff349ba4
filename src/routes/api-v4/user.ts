// GET /user in v4: UserPublic for the caller, UserWithAdmin when the caller is an administrator (what
// python-gitlab's gl.auth() reads). No private token here: v4 has personal access tokens instead.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadCurrentUser } from '../../views/user-views.ts';
import { presentCurrentUser } from '../../presenters/api-v4/user.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/user', async (request) =>
    presentCurrentUser(await loadCurrentUser(deps, requireViewer(request)), deps.config.externalUrl),
  );
}
