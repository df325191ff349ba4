// The browser side of sessions: the session cookie (HttpOnly, SameSite=Lax, Secure behind https, the
// session's lifetime), and the form token. A signed-in browser's token is its session's; a signed-out
// browser gets a random token in its own HttpOnly cookie that the sign-in form must echo (a
// double-submit: another site can neither read the cookie nor set the field to match it).
import crypto from 'node:crypto';
import { parse as parseCookies, serialize as serializeCookie, type SerializeOptions } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { findWebSession, randomToken, type WebSession } from '../../services/users/web-sessions.ts';
import type { PageContext } from '../../presenters/html/layout.tsx';
import { renderCommentMarkdown } from '../../presenters/html/markdown.ts';
import { listCurrentBroadcastMessages } from '../../views/broadcast-message-views.ts';
import type { BroadcastMessageRow } from '../../db/types.ts';
import { ASSETS } from './assets.ts';

const SESSION_COOKIE = '_labrador_session';
const CSRF_COOKIE = '_labrador_csrf';

declare module 'fastify' {
  interface FastifyRequest {
    /** The browser's live session (pages only), or null. */
    webSession: WebSession | null;
    /** The broadcast messages this page shows (read with the session). */
    broadcasts: BroadcastMessageRow[] | null;
  }
}

function cookies(request: FastifyRequest): Record<string, string | undefined> {
  const header = request.headers.cookie;
  return typeof header === 'string' ? parseCookies(header) : {};
}

function cookieOptions(deps: Deps, maxAgeSeconds: number): SerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: deps.config.externalUrl.startsWith('https:'),
    maxAge: maxAgeSeconds,
  };
}

function appendCookie(reply: FastifyReply, text: string): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  reply.header('set-cookie', [...list, text]);
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return cookies(request)[SESSION_COOKIE];
}

/** Reads the session cookie: the viewer of every page. */
export async function resolveWebSession(deps: Deps, request: FastifyRequest): Promise<void> {
  const token = sessionToken(request);
  request.webSession = token ? ((await findWebSession(deps, token)) ?? null) : null;
  request.viewer = request.webSession?.user ?? null;
  request.broadcasts = await listCurrentBroadcastMessages(deps, request.url);
}

export function setSessionCookie(deps: Deps, reply: FastifyReply, token: string, expiresAt: Date): void {
  const seconds = Math.round((expiresAt.getTime() - Date.now()) / 1000);
  appendCookie(reply, serializeCookie(SESSION_COOKIE, token, cookieOptions(deps, seconds)));
  appendCookie(reply, serializeCookie(CSRF_COOKIE, '', cookieOptions(deps, 0)));
}

export function clearSessionCookie(deps: Deps, reply: FastifyReply): void {
  appendCookie(reply, serializeCookie(SESSION_COOKIE, '', cookieOptions(deps, 0)));
}

/** The form token for this browser, setting the anonymous cookie when a signed-out browser has none. */
function csrfTokenFor(deps: Deps, request: FastifyRequest, reply: FastifyReply): string {
  if (request.webSession) return request.webSession.csrfToken;
  const existing = cookies(request)[CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomToken();
  // A day is plenty to fill in a sign-in form.
  appendCookie(reply, serializeCookie(CSRF_COOKIE, token, cookieOptions(deps, 86_400)));
  return token;
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/** Whether an unsafe request carries this browser's form token (field or X-CSRF-Token header). */
export function csrfTokenValid(request: FastifyRequest): boolean {
  const body = request.body as Record<string, unknown> | undefined;
  const header = request.headers['x-csrf-token'];
  const sent = (body && typeof body === 'object' ? body.authenticity_token : undefined) ?? header;
  const expected = request.webSession ? request.webSession.csrfToken : cookies(request)[CSRF_COOKIE];
  return (
    typeof sent === 'string' && typeof expected === 'string' && expected !== '' && sameSecret(sent, expected)
  );
}

export function pageContext(deps: Deps, request: FastifyRequest, reply: FastifyReply): PageContext {
  const user = request.webSession?.user ?? null;
  return {
    viewer: user
      ? {
          id: user.id,
          username: user.username,
          name: user.name,
          avatar: user.avatar,
          admin: user.admin === 1,
          pendingTodos: request.webSession?.pendingTodos ?? 0,
        }
      : null,
    csrfToken: csrfTokenFor(deps, request, reply),
    path: request.url,
    assets: { stylesheet: ASSETS.stylesheet.url, script: ASSETS.script.url, icon: ASSETS.icon.url },
    broadcasts: (request.broadcasts ?? []).map((row) => ({
      id: row.id,
      html: renderCommentMarkdown(row.message),
      color: row.color,
      font: row.font,
    })),
  };
}
