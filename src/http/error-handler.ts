// Turns everything thrown in a request into GitLab's bodies. Bad input is always a 4xx with JSON;
// only a bug reaches the 500 branch, and it is logged with the request id.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
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
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: '500 Internal Server Error' });
  });

  // GitLab 8.13's catch-all route answered Grape-style.
  app.setNotFoundHandler((_request, reply) => {
    reply.status(404).send({ error: '404 Not Found' });
  });
}
