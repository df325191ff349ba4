// Sends a page: Preact renders the TSX presenters to a string (escaping text and attributes), behind
// the doctype. Redirects for "sign in and come back" and after form posts live here too (the
// "sign in first" of a hidden project is http/loaders.ts's hiddenAsks).
import type { FastifyReply } from 'fastify';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

export function sendPage(reply: FastifyReply, page: VNode, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(`<!DOCTYPE html>\n${renderToString(page)}`);
}

/** Only a path on this site is a place to come back to (never `//host` or a scheme). */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return '/';
  }
  return value;
}

export function redirectToSignIn(reply: FastifyReply, returnPath: string): FastifyReply {
  return reply.redirect(`/users/sign_in?redirect_to=${encodeURIComponent(safeReturnPath(returnPath))}`, 302);
}
