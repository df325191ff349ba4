// GET/POST /users/sign_in and POST /users/sign_out. The password goes through the same check as the
// API's POST /session, behind the same limiter; a session row is made only after the check passes.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { checkPassword } from '../../services/users/session.ts';
import { SignInBanned } from '../../services/users/sign-in-limiter.ts';
import { endWebSession, startWebSession } from '../../services/users/web-sessions.ts';
import { SignInPage } from '../../presenters/html/sign-in.tsx';
import type { Flash } from '../../presenters/html/layout.tsx';
import { clearSessionCookie, pageContext, sessionToken, setSessionCookie } from './web-session.ts';
import { safeReturnPath, sendPage } from './render.ts';
import { doneNotice } from './form-errors.ts';

/** Devise's texts as GitLab 8.13 showed them. */
const INVALID = 'Invalid Login or password.';
const BLOCKED =
  'Your account has been blocked. Please contact your GitLab administrator if you think this is an error.';
/** Devise's notice after a redirect (`?done=<key>`). */
const DONE = {
  signed_out: 'Signed out successfully.',
  reset_sent:
    'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.',
  password_changed: 'Your password has been changed successfully. You can sign in with it now.',
};

export function registerSignIn(web: FastifyInstance, deps: Deps): void {
  web.get('/users/sign_in', async (request, reply) => {
    const redirectTo = safeReturnPath(optionalString(requestParams(request), 'redirect_to'));
    if (request.webSession) return reply.redirect(redirectTo, 302);
    return sendPage(
      reply,
      <SignInPage
        ctx={pageContext(deps, request, reply)}
        login=""
        redirectTo={redirectTo}
        flash={doneNotice(request, DONE) ?? undefined}
      />,
    );
  });

  web.post('/users/sign_in', async (request, reply) => {
    const params = requestParams(request);
    const login = optionalString(params, 'user[login]') ?? '';
    const password = optionalString(params, 'user[password]') ?? '';
    const redirectTo = safeReturnPath(optionalString(params, 'redirect_to'));
    const again = (status: number, flash: Flash) =>
      sendPage(
        reply,
        <SignInPage
          ctx={pageContext(deps, request, reply)}
          login={login}
          redirectTo={redirectTo}
          flash={flash}
        />,
        status,
      );
    if (login === '' || password === '') return again(401, { kind: 'alert', text: INVALID });
    let outcome;
    try {
      outcome = await checkPassword(deps, request.ip, login, password);
    } catch (error) {
      if (!(error instanceof SignInBanned)) throw error;
      reply.header('retry-after', String(error.retryAfterSeconds));
      return again(429, {
        kind: 'alert',
        text: 'Too many failed sign-ins from your address. Retry in a few minutes.',
      });
    }
    if (outcome === 'invalid') return again(401, { kind: 'alert', text: INVALID });
    if (outcome === 'blocked') return again(401, { kind: 'alert', text: BLOCKED });
    // A new session at each sign-in; the browser's previous one, if any, ends.
    const previous = sessionToken(request);
    if (previous) await endWebSession(deps, previous);
    const started = await startWebSession(deps, outcome, {
      ip: request.ip,
      userAgent: String(request.headers['user-agent'] ?? ''),
    });
    setSessionCookie(deps, reply, started.token, started.expiresAt);
    return reply.redirect(redirectTo, 302);
  });

  web.post('/users/sign_out', async (request, reply) => {
    const token = sessionToken(request);
    if (token) await endWebSession(deps, token);
    clearSessionCookie(deps, reply);
    return reply.redirect('/users/sign_in?done=signed_out', 302);
  });
}
