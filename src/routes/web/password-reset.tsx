// Forgot password at Devise's paths: GET /users/password/new, POST /users/password (always the same
// answer), GET /users/password/edit?reset_password_token=…, POST /users/password/edit (sets it once).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import {
  requestPasswordReset,
  resetLinkIsLive,
  resetPasswordWithToken,
} from '../../services/users/password-reset.ts';
import { ChangePasswordPage, ForgotPasswordPage } from '../../presenters/html/password-reset.tsx';
import { pageContext } from './web-session.ts';
import { sendPage } from './render.ts';

/** Devise's text (the "sent" notice is the sign-in page's `reset_sent`). */
const EXPIRED = 'Reset password token is invalid or has expired. Ask for a new link.';

export function registerPasswordReset(web: FastifyInstance, deps: Deps): void {
  web.get('/users/password/new', async (request, reply) =>
    sendPage(reply, <ForgotPasswordPage ctx={pageContext(deps, request, reply)} />),
  );

  web.post('/users/password', async (request, reply) => {
    await requestPasswordReset(deps, optionalString(requestParams(request), 'user[email]') ?? '');
    return reply.redirect('/users/sign_in?done=reset_sent', 302);
  });

  web.get('/users/password/edit', async (request, reply) => {
    const token = optionalString(requestParams(request), 'reset_password_token') ?? '';
    const ctx = pageContext(deps, request, reply);
    if (!(await resetLinkIsLive(deps, token)))
      return sendPage(reply, <ForgotPasswordPage ctx={ctx} flash={{ kind: 'alert', text: EXPIRED }} />, 404);
    return sendPage(reply, <ChangePasswordPage ctx={ctx} token={token} />);
  });

  web.post('/users/password/edit', async (request, reply) => {
    const params = requestParams(request);
    const token = optionalString(params, 'user[reset_password_token]') ?? '';
    const password = optionalString(params, 'user[password]') ?? '';
    const ctx = pageContext(deps, request, reply);
    if (password !== (optionalString(params, 'user[password_confirmation]') ?? '')) {
      const flash = { kind: 'alert', text: "Password confirmation doesn't match Password" } as const;
      return sendPage(reply, <ChangePasswordPage ctx={ctx} token={token} flash={flash} />, 422);
    }
    const outcome = await resetPasswordWithToken(deps, token, password);
    if (outcome === 'expired')
      return sendPage(reply, <ForgotPasswordPage ctx={ctx} flash={{ kind: 'alert', text: EXPIRED }} />, 404);
    if (outcome !== 'done') {
      const flash = { kind: 'alert', text: `Password: ${outcome.problem}` } as const;
      return sendPage(reply, <ChangePasswordPage ctx={ctx} token={token} flash={flash} />, 422);
    }
    return reply.redirect('/users/sign_in?done=password_changed', 302);
  });
}
