// Request bodies as GitLab's clients send them: JSON (an empty body counts as no parameters) and
// form-encoded, where a repeated key or `key[]` collects into an array. Text that is not valid UTF-8 is
// refused rather than stored with replacement characters.
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';

const notUtf8 = () => new ApiError(400, { error: 'Body is not valid UTF-8' });

export function installBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(/^application\/(.+\+)?json/, { parseAs: 'buffer' }, (_request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) return done(notUtf8(), undefined);
    const text = bytes.toString('utf8').trim();
    if (text === '') return done(null, {});
    try {
      const parsed = JSON.parse(text);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return done(new ApiError(400, { error: 'Body must be a JSON object' }), undefined);
      }
      done(null, parsed);
    } catch {
      done(new ApiError(400, { error: 'Body is not valid JSON' }), undefined);
    }
  });

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      try {
        done(null, parseForm(body as string));
      } catch {
        done(notUtf8(), undefined);
      }
    },
  );
}

/** Strict decoding: a percent-escape that is not UTF-8 throws (URLSearchParams would replace it). */
function decodeFormComponent(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

function parseForm(text: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawKey = decodeFormComponent(equals < 0 ? pair : pair.slice(0, equals));
    const value = equals < 0 ? '' : decodeFormComponent(pair.slice(equals + 1));
    const isArray = rawKey.endsWith('[]');
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    const existing = result[key];
    if (existing === undefined) result[key] = isArray ? [value] : value;
    else result[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return result;
}
