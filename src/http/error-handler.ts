// Turns everything thrown in a request into GitLab's bodies. Bad input is always a 4xx with JSON;
// only a bug reaches the 500 branch, and it is logged with the request id.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, AttributeNotGiven, paramsMissing, routeNotFound } from '../errors.ts';
import { storageFullCause } from '../lib/storage-full.ts';

/**
 * Whether a path belongs to a machine's surface (the APIs, git over HTTP), which answers an unknown path
 * with GitLab's JSON; every other unknown path is a person's, answered with a page.
 */
function isMachinePath(url: string): boolean {
  const path = url.split('?', 1)[0];
  return (
    /^\/+(api|ci\/api)(\/|$)/.test(path) ||
    /^\/[^/]+\/[^/]+\.git(\/|$)/.test(path) ||
    /\/(info\/refs|git-upload-pack|git-receive-pack)$/.test(path)
  );
}

export type NotFoundPage = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** GitLab's answer to anything thrown in a request, v3's words. */
function answerError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) {
    reply.status(error.status).headers(error.headers);
    if (error.body === null) return reply.send();
    return reply.send(error.body);
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) {
    // Malformed JSON, oversized or unsupported bodies: the client's fault, said plainly.
    const message =
      (error as FastifyError).code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? 'Body is not valid JSON'
        : error.message;
    return reply.status(status).send({ error: message });
  }
  const full = storageFullCause(error);
  if (full !== undefined) {
    // Not a bug and not the client's fault: one line naming the cause, and a status clients understand.
    request.log.error(`storage full: ${full}`);
    return reply.status(507).send({ message: '507 Insufficient Storage' });
  }
  if ((error as { code?: unknown }).code === 'E2BIG') {
    // A name past the kernel's limit on one argument that no bound stopped earlier: the client's input.
    request.log.warn({ err: error }, 'argument too long for git');
    return reply.status(400).send({ message: '400 Bad Request' });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ message: '500 Internal Server Error' });
}

/**
 * The same answers in v4's words where they differ: a required parameter the v3 readers found missing
 * is Grape's `{"error":"name is missing"}`, as every v4 `requires` says it.
 */
function answerV4Error(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  return answerError(
    error instanceof AttributeNotGiven ? paramsMissing(error.attribute) : error,
    request,
    reply,
  );
}

/** The error handler of a scope that speaks GitLab's v4 (installErrorHandlers' for the rest). */
export function installV4ErrorHandler(scope: FastifyInstance): void {
  scope.setErrorHandler(answerV4Error);
}

export function installErrorHandlers(app: FastifyInstance, notFoundPage?: NotFoundPage): void {
  app.setErrorHandler(answerError);

  // GitLab 8.13's catch-all route answered Grape-style under the APIs, and with its 404 page elsewhere.
  app.setNotFoundHandler((request, reply) => {
    if (notFoundPage && !isMachinePath(request.url)) return notFoundPage(request, reply);
    return reply.status(404).send(routeNotFound().body);
  });
}

/**
 * Requests node's parser refuses (a malformed request line, headers or URL over the size limit): a JSON
 * answer that says `Connection: close`, because the socket is closed after it and a keep-alive client
 * must not send its next request down it.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ message: `${status} ${http.STATUS_CODES[status]}` });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Errors Fastify's router raises before a route runs (a path that is not valid percent-encoding, a
 * path parameter over the length limit): GitLab's plain `{"message":"400 Bad Request"}`, without
 * echoing the URL back.
 */
export function answerFrameworkError(error: FastifyError, _request: unknown, reply: FastifyReply): void {
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  reply.status(status).send({ message: `${status} ${http.STATUS_CODES[status]}` });
}
