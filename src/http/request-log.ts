// One log line per request when LABRADOR_LOG_REQUESTS is on (always at debug and trace): method, path,
// status and duration. The query string is left out: clients put private_token there.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

export function installRequestLog(
  app: FastifyInstance,
  config: Pick<Config, 'logRequests' | 'logLevel'>,
): void {
  if (!config.logRequests && config.logLevel !== 'debug' && config.logLevel !== 'trace') return;
  app.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?', 1)[0];
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    request.log.info(
      { method: request.method, path, status: reply.statusCode, ms },
      `${request.method} ${path} ${reply.statusCode} ${ms} ms`,
    );
  });
}
