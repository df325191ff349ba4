// Sends a page: Preact renders the TSX presenters to a string (escaping text and attributes), behind
// the doctype. Redirects for "sign in and come back" and after form posts live here too.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, unauthorized } from '../../errors.ts';
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

/**
 * Loads something through its policy; a signed-out visitor who meets a 404 is asked to sign in instead
 * (the error handler redirects a 401 there and back), since signing in may reveal it. A signed-in
 * visitor gets the 404, exactly as the API answers.
 */
export async function hiddenAsks<T>(request: FastifyRequest, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!request.viewer && error instanceof ApiError && error.status === 404) throw unauthorized();
    throw error;
  }
}
