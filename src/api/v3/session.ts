// POST /session (lib/api/session.rb): a login (username or email) and password buy the private token.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { signIn } from '../../services/session.ts';
import { presentUserLogin } from '../../presenters/user.ts';
import { loadUserFullExtras } from '../../services/users.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/session', { config: { public: true } }, async (request, reply) => {
    const params = requestParams(request);
    // GitLab read `email` first, then `login`.
    const login = optionalString(params, 'email') || optionalString(params, 'login');
    const user = await signIn(deps, login, optionalString(params, 'password'));
    reply.status(201);
    return presentUserLogin(user, deps.config.externalUrl, await loadUserFullExtras(deps, user.id));
  });
}
