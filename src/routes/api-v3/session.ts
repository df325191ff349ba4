// POST /session: a login (username or email) and password buy the user's private token.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { signIn } from '../../services/users/session.ts';
import { loadCurrentUser } from '../../views/user-views.ts';
import { presentUserLogin } from '../../presenters/api-v3/user.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/session', { config: { public: true } }, async (request, reply) => {
    const params = requestParams(request);
    // GitLab read `email` first, then `login`.
    const login = optionalString(params, 'email') || optionalString(params, 'login');
    const user = await signIn(deps, request.ip, login, optionalString(params, 'password'));
    reply.status(201);
    const { extras } = await loadCurrentUser(deps, user);
    return presentUserLogin(user, deps.config.externalUrl, extras);
  });
}
