// A service's refusal shown on a page: the API's error bodies turned into one line of text, and the
// form again with it (422) instead of an error page. Shared by every page with a form.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import type { Flash } from '../../presenters/html/layout.tsx';

/** One line from any of the API's error bodies (`{"message": …}`, `{"error": …}`, field → messages). */
export function errorText(error: ApiError): string {
  const body = error.body ?? {};
  const value = body.message ?? body.error;
  if (typeof value === 'string') return value.replace(/^\d{3} /, '');
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(
        ([field, messages]) => `${field} ${Array.isArray(messages) ? messages.join(', ') : String(messages)}`,
      )
      .join('; ');
  }
  return 'The change was refused.';
}

/** Runs a service call; an ApiError below 500 becomes the form again with its text. */
export async function attempt<T>(
  work: () => Promise<T>,
  again: (flash: Flash) => FastifyReply,
): Promise<{ ok: true; value: T } | { ok: false; reply: FastifyReply }> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return { ok: false, reply: again({ kind: 'alert', text: errorText(error) }) };
  }
}

/** The notice a redirect after a successful post asks for (`?done=<key>`), from the page's own table. */
export function doneNotice(request: FastifyRequest, messages: Record<string, string>): Flash | null {
  const done = optionalString(requestParams(request), 'done');
  return done && Object.hasOwn(messages, done) ? { kind: 'notice', text: messages[done] } : null;
}
