// How a form shows a service's refusal: the API's error body as one line, and the form again with it.
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../errors.ts';
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

/** Runs a service call; an ApiError below 500 becomes the form again with its text (422). */
export async function attempt<T>(
  work: () => Promise<T>,
  again: (flash: Flash) => FastifyReply | Promise<FastifyReply>,
): Promise<{ ok: true; value: T } | { ok: false; reply: FastifyReply }> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return { ok: false, reply: await again({ kind: 'alert', text: errorText(error) }) };
  }
}
