// buildApp(deps): the Fastify instance with parsers, the auth hook, every route table and the error
// handlers. main.ts adds the process around it; tests call it directly and speak HTTP through inject.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Deps } from './deps.ts';
import { installBodyParsers } from './http/body-parsers.ts';
import { answerClientError, answerFrameworkError, installErrorHandlers } from './http/error-handler.ts';
import { findNulPathParameter } from './http/params.ts';
import { paramInvalid } from './errors.ts';
import { resolveViewer } from './http/auth.ts';
import { registerApiV3 } from './routes/api-v3/index.ts';
import { registerApiV4 } from './routes/api-v4/index.ts';
import { registerUploadFiles } from './routes/web/uploads.ts';
import { registerGitHttp } from './routes/git-http/routes.ts';
import { registerCiApiV1 } from './routes/ci-v1/index.ts';
import { registerRunnerApiV4 } from './routes/runner-v4/index.ts';
import { registerHealth } from './routes/web/health.ts';
import { notFoundPage, registerWeb } from './routes/web/index.tsx';
import { installRequestLog } from './http/request-log.ts';
import { normaliseApiUrl } from './http/url-normalise.ts';

export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log,
    // Fastify's own two lines per request are replaced by one (http/request-log.ts), when switched on.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { maxParamLength: 1000 },
    bodyLimit: 10 * 1024 * 1024,
    forceCloseConnections: 'idle',
    clientErrorHandler: answerClientError,
    // Node checks the headers timeout only every connectionsCheckingInterval (30 s by default), so a
    // stalled connection could stay up to 30 s past the bound: check a tenth as often, at least each second.
    http: {
      headersTimeout: deps.config.requestHeadersTimeoutMs,
      connectionsCheckingInterval: Math.max(
        10,
        Math.min(1000, Math.floor(deps.config.requestHeadersTimeoutMs / 10)),
      ),
    },
    frameworkErrors: answerFrameworkError,
    // request.ip is the socket's address unless that is a trusted proxy: then X-Forwarded-For's client.
    trustProxy: deps.config.trustedProxies.length > 0 ? deps.config.trustedProxies : false,
    // Trailing and doubled slashes and the `.json` suffix, as Rails and Grape read them (API paths only).
    rewriteUrl: (request) => normaliseApiUrl(request.url ?? '/'),
  });
  installBodyParsers(app);
  // Cached reads may share one look at the database only among requests that arrived before it.
  app.addHook('onRequest', (_request, _reply, done) => {
    deps.db.requestArrived();
    done();
  });
  installErrorHandlers(app, notFoundPage(deps));
  installRequestLog(app, deps.config);
  app.addHook('preValidation', async (request) => {
    const name = findNulPathParameter(request);
    if (name !== undefined) throw paramInvalid(name);
  });

  await app.register(
    async (api) => {
      api.decorateRequest('viewer', null);
      api.decorateRequest('sudo', false);
      api.addHook('onRequest', () => deps.pushQueue.caughtUp());
      api.addHook('preHandler', async (request) => resolveViewer(deps, request));
      registerApiV3(api, deps);
    },
    { prefix: '/api/v3' },
  );
  registerApiV4(app, deps);
  // Git smart HTTP lives outside /api/v3 at /<namespace>/<project>(.git)/…, with its own basic auth.
  registerGitHttp(app, deps);
  registerCiApiV1(app, deps);
  registerRunnerApiV4(app, deps);
  registerUploadFiles(app, deps);
  registerHealth(app, deps);
  registerWeb(app, deps);
  return app;
}
