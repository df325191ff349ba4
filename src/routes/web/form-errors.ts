// A write refused by a service (bad input, not allowed, a state that forbids it) is shown on the page
// that asked for it, in words, instead of an error page. Shared by every page with a form.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import type { Flash } from '../../presenters/html/layout.tsx';

/** The texts of a refused write, from the API's error bodies (`{"message":{"title":[…]}}` and the rest). */
export function errorTexts(error: ApiError): string[] {
  // A message that holds a Ruby-printed hash (`Failed to save group {:path=>[…]}`) is said field by field.
  if (error.fields) return fieldTexts(error.fields);
  const body = error.body ?? {};
  const message = body.message ?? body.error;
  if (typeof message === 'string') return [message.replace(/^\d{3} /, '')];
  if (Array.isArray(message)) return message.map(String);
  if (message && typeof message === 'object') return fieldTexts(message as Record<string, unknown>);
  return ['The change was refused.'];
}

/** `{"path":["has already been taken"]}` → `Path has already been taken`, as Rails' full messages read. */
function fieldTexts(fields: Record<string, unknown>): string[] {
  return Object.entries(fields).flatMap(([field, texts]) =>
    (Array.isArray(texts) ? texts : [texts]).map((text) => {
      const name = field.replace(/_/g, ' ');
      return `${name.charAt(0).toUpperCase()}${name.slice(1)} ${String(text)}`;
    }),
  );
}

/** The same texts on one line. */
export function errorText(error: ApiError): string {
  return errorTexts(error).join('; ');
}

/** A refusal a form can show (bad input, not allowed); anything else is left to the error page. */
export function isFormRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && [400, 403, 405, 406, 409, 422].includes(error.status);
}

/** Runs a service call; an ApiError below 500 becomes the form again with its text. */
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

/** The notice a redirect after a successful post asks for (`?done=<key>`), from the page's own table. */
export function doneNotice(request: FastifyRequest, messages: Record<string, string>): Flash | null {
  const done = optionalString(requestParams(request), 'done');
  return done && Object.hasOwn(messages, done) ? { kind: 'notice', text: messages[done] } : null;
}
