// The runner protocol (/ci/api/v1): what gitlab-ci-multi-runner 1.x and our own runner speak. Every answer
// carries exactly `Content-Type: application/json` when it is JSON: runners 1.7.0 and 1.7.1 compare the
// whole header and refuse `application/json; charset=utf-8`.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import * as runners from './runners.ts';
import * as builds from './builds.ts';
import * as artifacts from './artifacts.ts';

const modules = [runners, builds, artifacts];

export function registerCiApiV1(app: FastifyInstance, deps: Deps): void {
  app.register(
    async (scope) => {
      // A build made by a push that was just answered is there for the next request for builds.
      scope.addHook('onRequest', () => deps.pushQueue.caughtUp());
      scope.addHook('onSend', async (_request, reply, payload) => {
        const type = reply.getHeader('content-type');
        if (typeof type === 'string' && type.startsWith('application/json')) {
          reply.header('content-type', 'application/json');
        }
        return payload;
      });
      scope.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: '404 Not Found' }));
      for (const module of modules) module.register(scope, deps);
    },
    { prefix: '/ci/api/v1' },
  );
}
