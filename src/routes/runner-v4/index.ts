// The v4 runner protocol (/api/v4/runners, /api/v4/jobs/…): what every gitlab-runner since 9.0 speaks,
// our own runner included. Over the same services/ci/ claim-and-update core as /ci/api/v1; only the
// paths, the credentials (the job's token for every per-job call) and the payload differ. Errors in v4's
// shapes, JSON answers with exactly `Content-Type: application/json`.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { installV4ErrorHandler } from '../../http/error-handler.ts';
import * as runners from './runners.ts';
import * as jobs from './jobs.ts';
import * as trace from './trace.ts';
import * as artifacts from './artifacts.ts';

const modules = [runners, jobs, trace, artifacts];

export function registerRunnerApiV4(app: FastifyInstance, deps: Deps): void {
  app.register(
    async (scope) => {
      installV4ErrorHandler(scope);
      // A build made by a push that was just answered is there for the next request for jobs.
      scope.addHook('onRequest', () => deps.pushQueue.caughtUp());
      scope.addHook('onSend', async (_request, reply, payload) => {
        const type = reply.getHeader('content-type');
        if (typeof type === 'string' && type.startsWith('application/json')) {
          reply.header('content-type', 'application/json');
        }
        return payload;
      });
      for (const module of modules) module.register(scope, deps);
    },
    { prefix: '/api/v4' },
  );
}
