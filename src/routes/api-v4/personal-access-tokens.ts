// Personal access tokens (GitLab's v4 API::PersonalAccessTokens and the token routes of API::Users):
// GET /personal_access_tokens (the caller's; an administrator's: everybody's, or one user's with
// user_id), GET /personal_access_tokens/:id and /self, DELETE of both (revoke, 204), and
// POST /user/personal_access_tokens (for oneself) and /users/:user_id/personal_access_tokens (an
// administrator's, for anyone): 201 with the secret, the one time it is shown.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import {
  apiError,
  forbidden,
  notFound,
  paramValueInvalid,
  recordNotFound,
  unauthorized,
} from '../../errors.ts';
import { requestAccessToken, requireViewer } from '../../http/auth.ts';
import { findUserByIdParam } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalBoolean, optionalInteger, optionalOneOf, pathId, requestParams } from '../../http/params.ts';
import { newTokenParams } from '../../http/token-params.ts';
import { isAdministrator } from '../../policies/users.ts';
import { createPersonalAccessToken, revokeAccessToken } from '../../services/users/personal-access-tokens.ts';
import {
  countTokens,
  findTokenView,
  tokensPage,
  tokenView,
  type TokenListFilter,
} from '../../views/personal-access-token-views.ts';
import {
  presentPersonalAccessToken,
  presentPersonalAccessTokenWithToken,
} from '../../presenters/api-v4/personal-access-tokens.ts';
import type { UserRow } from '../../db/types.ts';
import { noContent } from './conventions.ts';

/** The list's filters; a non-administrator naming another user is a 401, as GitLab's restrict_non_admins!. */
function listFilter(request: FastifyRequest, viewer: UserRow): TokenListFilter {
  const params = requestParams(request);
  const userId = optionalInteger(params, 'user_id');
  const revoked = optionalBoolean(params, 'revoked');
  const state = optionalOneOf(params, 'state', ['active', 'inactive'] as const, () =>
    paramValueInvalid('state'),
  );
  if (!isAdministrator(viewer)) {
    if (userId !== undefined && userId !== viewer.id) throw unauthorized();
    return { userId: viewer.id, revoked, state };
  }
  return { userId, revoked, state };
}

async function create(deps: Deps, request: FastifyRequest, reply: FastifyReply, user: UserRow) {
  const input = newTokenParams(requestParams(request));
  const { row, token } = await createPersonalAccessToken(deps, user.id, input);
  return reply.code(201).send(presentPersonalAccessTokenWithToken(tokenView(row), token));
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/personal_access_tokens', async (request, reply) => {
    const filter = listFilter(request, requireViewer(request));
    const page = await paginate(
      request,
      reply,
      deps.config.externalUrl,
      () => countTokens(deps, filter),
      (range) => tokensPage(deps, filter, range),
    );
    return page.map(presentPersonalAccessToken);
  });

  // The token this request authenticated with (none with the private token: 404).
  const ownToken = (request: FastifyRequest) => {
    const token = requestAccessToken(request);
    if (!token) throw notFound();
    return token;
  };
  app.get('/personal_access_tokens/self', async (request) =>
    presentPersonalAccessToken(tokenView(ownToken(request))),
  );
  app.delete('/personal_access_tokens/self', async (request, reply) => {
    await revokeAccessToken(deps, ownToken(request).id);
    return noContent(reply);
  });

  app.get<{ Params: { id: string } }>('/personal_access_tokens/:id', async (request) => {
    const viewer = requireViewer(request);
    const id = pathId(request.params.id);
    const found = id === undefined ? undefined : await findTokenView(deps, id);
    if (found && (found.token.user_id === viewer.id || isAdministrator(viewer))) {
      return presentPersonalAccessToken(found);
    }
    // Only administrators learn that a token does not exist.
    throw isAdministrator(viewer) ? notFound() : unauthorized();
  });
  app.delete<{ Params: { id: string } }>('/personal_access_tokens/:id', async (request, reply) => {
    const viewer = requireViewer(request);
    const id = pathId(request.params.id);
    const found = id === undefined ? undefined : await findTokenView(deps, id);
    if (!found) throw recordNotFound();
    // GitLab's RevokeService refuses someone else's token with a bare 400.
    if (found.token.user_id !== viewer.id && !isAdministrator(viewer)) throw apiError(400, '400 Bad request');
    await revokeAccessToken(deps, found.token.id);
    return noContent(reply);
  });

  app.post('/user/personal_access_tokens', async (request, reply) =>
    create(deps, request, reply, requireViewer(request)),
  );
  app.post<{ Params: { user_id: string } }>(
    '/users/:user_id/personal_access_tokens',
    async (request, reply) => {
      if (!isAdministrator(requireViewer(request))) throw forbidden();
      const user = await findUserByIdParam(deps, request.params.user_id);
      if (!user) throw notFound('User');
      return create(deps, request, reply, user);
    },
  );
}
