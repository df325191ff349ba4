// Request bodies as GitLab's clients send them: JSON (an empty body counts as no parameters) and
// form-encoded, where a repeated key or `key[]` collects into an array; for /api/v4 also multipart, whose
// fields are parameters like a form's. Text that is not valid UTF-8 is refused rather than stored with
// replacement characters.
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { ApiError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its multipart body itself (`request.parts()`, files streamed); no fields parsed. */
    multipartStream?: boolean;
  }
}

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

type FormFields = Record<string, string | string[]>;

/** One form field: a repeated key or `key[]` collects into an array. */
function addFormField(result: FormFields, rawKey: string, value: string): void {
  const isArray = rawKey.endsWith('[]');
  const key = isArray ? rawKey.slice(0, -2) : rawKey;
  const existing = result[key];
  if (existing === undefined) result[key] = isArray ? [value] : value;
  else result[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
}

function parseForm(text: string): FormFields {
  const result: FormFields = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawKey = decodeFormComponent(equals < 0 ? pair : pair.slice(0, equals));
    addFormField(result, rawKey, equals < 0 ? '' : decodeFormComponent(pair.slice(equals + 1)));
  }
  return result;
}

/** What a multipart body's fields may hold in all: the JSON and form bodies' limit (app.ts bodyLimit). */
const MULTIPART_FIELD_BYTES = 10 * 1024 * 1024;

/** A file part kept in memory (an avatar): its first bytes up to the limit, `truncated` when it had more. */
export interface BufferedFile {
  filename: string;
  data: Buffer;
  truncated: boolean;
}

const bufferedFiles = new WeakMap<FastifyRequest, Map<string, BufferedFile>>();

/** The file a multipart body sent as `name` (one of the scope's buffered fields), if any. */
export function bufferedFile(request: FastifyRequest, name: string): BufferedFile | undefined {
  return bufferedFiles.get(request)?.get(name);
}

/** Reads at most `limit + 1` bytes of a stream, then drains the rest unread. */
async function readUpTo(stream: Readable, limit: number): Promise<{ data: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (truncated) continue;
    const room = limit + 1 - size;
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    size += Math.min(chunk.length, room);
    if (size > limit) truncated = true;
  }
  if ((stream as { truncated?: boolean }).truncated) truncated = true;
  return { data: Buffer.concat(chunks), truncated };
}

const bodyTooLarge = () => new ApiError(413, { error: 'Request body is too large' });

/**
 * Multipart bodies in a scope (GitLab's v4 read them like forms; gitbeaker sends one when a call carries a
 * file, such as an avatar): the fields become the request's body, read by requestParams like a form's;
 * files are read past and dropped, but for the fields `buffered` names, kept in memory up to their
 * byte count plus one (which tells a file too big) for bufferedFile. A route with `config: { multipartStream: true }` reads the parts
 * itself instead (an upload), with the file size limit given here.
 */
export async function installMultipartParams(
  scope: FastifyInstance,
  fileBytes: number,
  buffered: Record<string, number> = {},
): Promise<void> {
  await scope.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: Math.max(fileBytes, 1), fieldSize: MULTIPART_FIELD_BYTES, fields: 1000, parts: 1100 },
  });
  scope.addHook('preValidation', async (request) => {
    if (!request.isMultipart() || request.routeOptions.config.multipartStream) return;
    const fields: FormFields = {};
    const files = new Map<string, BufferedFile>();
    let bytes = 0;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const limit = Object.hasOwn(buffered, part.fieldname) ? buffered[part.fieldname] : undefined;
          if (limit === undefined || files.has(part.fieldname) || !part.filename) {
            part.file.resume();
            continue;
          }
          files.set(part.fieldname, { filename: part.filename, ...(await readUpTo(part.file, limit)) });
          continue;
        }
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        bytes += Buffer.byteLength(value);
        if (part.valueTruncated || bytes > MULTIPART_FIELD_BYTES) throw bodyTooLarge();
        addFormField(fields, part.fieldname, value);
      }
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (error instanceof ApiError || (status !== undefined && status >= 400 && status < 500)) throw error;
      throw new ApiError(400, { error: 'Body is not valid multipart' });
    }
    request.body = fields;
    if (files.size > 0) bufferedFiles.set(request, files);
  });
}
