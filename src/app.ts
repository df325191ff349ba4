// buildApp(deps): the Fastify instance with parsers, the auth hook, every route table and the error
// handlers. main.ts adds the process around it; tests call it directly and speak HTTP through inject.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Deps } from './deps.ts';
import { installBodyParsers } from './http/body-parsers.ts';
import { installErrorHandlers } from './http/error-handler.ts';
import { resolveViewer } from './http/auth.ts';
import { registerApiV3 } from './api/v3/index.ts';
import { registerUploadFiles } from './web/uploads.ts';
import { registerGitHttp } from './git-http/routes.ts';

export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log,
    // Per-request log lines cost throughput; they are there when debugging.
    logController: new LogController({ disableRequestLogging: deps.config.logLevel !== 'debug' }),
    routerOptions: { maxParamLength: 1000 },
    bodyLimit: 10 * 1024 * 1024,
    forceCloseConnections: 'idle',
  });
  installBodyParsers(app);
  installErrorHandlers(app);

  await app.register(
    async (api) => {
      api.decorateRequest('viewer', null);
      api.decorateRequest('sudo', false);
      api.addHook('preHandler', async (request) => resolveViewer(deps, request));
      registerApiV3(api, deps);
    },
    { prefix: '/api/v3' },
  );
  // Git smart HTTP lives outside /api/v3 at /<namespace>/<project>(.git)/…, with its own basic auth.
  registerGitHttp(app, deps);
  registerUploadFiles(app, deps);
  return app;
}
