// Request bodies as GitLab's clients send them: JSON (an empty body counts as no parameters) and
// form-encoded, where a repeated key or `key[]` collects into an array.
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

export function installBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(/^application\/(.+\+)?json/, { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
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
      done(null, parseForm(body as string));
    },
  );
}

export function parseForm(text: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const isArray = rawKey.endsWith('[]');
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    const existing = result[key];
    if (existing === undefined) result[key] = isArray ? [value] : value;
    else result[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return result;
}
