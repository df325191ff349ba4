// /profile/personal_access_tokens: the signed-in user's tokens, made and revoked through the same
// parameter rules and services as the API's POST /user/personal_access_tokens and DELETE
// /personal_access_tokens/:id. A new token's secret is on the page that answers the form, and nowhere
// after; a refused form comes back (422) with what was typed and the API's message in words.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { requireViewer } from '../../http/auth.ts';
import { optionalString, optionalStringList, pathId, requestParams } from '../../http/params.ts';
import { newTokenParams } from '../../http/token-params.ts';
import { createPersonalAccessToken, revokeAccessToken } from '../../services/users/personal-access-tokens.ts';
import { findTokenView, tokensPage } from '../../views/personal-access-token-views.ts';
import type { Flash } from '../../presenters/html/layout.tsx';
import {
  PersonalAccessTokensPage,
  type NewTokenForm,
} from '../../presenters/html/personal-access-tokens.tsx';
import { pageContext } from './web-session.ts';
import { doneNotice, errorText } from './form-errors.ts';
import { sendPage } from './render.ts';

const PAGE = '/profile/personal_access_tokens';
/** The page lists this many active tokens, newest first. */
const LISTED = 100;

export function registerPersonalAccessTokens(web: FastifyInstance, deps: Deps): void {
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    shown: { flash?: Flash | null; created?: string; typed?: NewTokenForm },
    status = 200,
  ) => {
    const user = requireViewer(request);
    const tokens = await tokensPage(deps, { userId: user.id, state: 'active' }, { offset: 0, limit: LISTED });
    return sendPage(
      reply,
      <PersonalAccessTokensPage ctx={pageContext(deps, request, reply)} tokens={tokens} {...shown} />,
      status,
    );
  };

  web.get(PAGE, async (request, reply) =>
    page(request, reply, {
      flash: doneNotice(request, { revoked: 'The personal access token was revoked.' }),
    }),
  );
  web.post(PAGE, async (request, reply) => {
    const user = requireViewer(request);
    const params = requestParams(request);
    const typed: NewTokenForm = {
      name: optionalString(params, 'personal_access_token[name]') ?? '',
      expiresAt: optionalString(params, 'personal_access_token[expires_at]') ?? '',
      scopes: optionalStringList(params, 'personal_access_token[scopes]') ?? [],
    };
    try {
      const input = newTokenParams({ name: typed.name, expires_at: typed.expiresAt, scopes: typed.scopes });
      const { row, token } = await createPersonalAccessToken(deps, user.id, input);
      const flash: Flash = {
        kind: 'notice',
        text: `Your new personal access token "${row.name}" has been created.`,
      };
      return await page(request, reply, { flash, created: token });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return page(request, reply, { flash: { kind: 'alert', text: errorText(error) }, typed }, 422);
    }
  });
  web.post(`${PAGE}/:id/revoke`, async (request, reply) => {
    const user = requireViewer(request);
    const id = pathId((request.params as { id: string }).id);
    const found = id === undefined ? undefined : await findTokenView(deps, id);
    // Someone else's token, or none: nothing happens, as for the other profile lists.
    if (found && found.token.user_id === user.id) await revokeAccessToken(deps, found.token.id);
    return reply.redirect(`${PAGE}?done=revoked`, 302);
  });
}
