// A write refused by a service (bad input, not allowed, a state that forbids it) is shown on the page
// that asked for it, in words, instead of an error page.
import { ApiError } from '../../errors.ts';

/** The texts of a refused write, from the API's error bodies (`{"message":{"title":[…]}}` and the rest). */
export function errorTexts(error: ApiError): string[] {
  const body = error.body ?? {};
  const message = body.message ?? body.error;
  if (typeof message === 'string') return [message.replace(/^\d{3} /, '')];
  if (Array.isArray(message)) return message.map(String);
  if (message && typeof message === 'object') {
    return Object.entries(message as Record<string, unknown>).flatMap(([field, texts]) =>
      (Array.isArray(texts) ? texts : [texts]).map((text) => {
        const name = field.replace(/_/g, ' ');
        return `${name.charAt(0).toUpperCase()}${name.slice(1)} ${String(text)}`;
      }),
    );
  }
  return ['The change was refused.'];
}

/** A refusal a form can show (bad input, not allowed); anything else is left to the error page. */
export function isFormRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && [400, 403, 405, 406, 409, 422].includes(error.status);
}
