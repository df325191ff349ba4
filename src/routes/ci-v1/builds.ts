// Builds as a runner works them: POST builds/register (take a job: 201 with its payload, 204/404 when
// there is none), PUT builds/:id (state and whole trace; `builds/-1` is how a runner checks it still
// exists) and PATCH builds/:id/trace.txt (a trace piece; 202 with `Range` and `Build-Status`).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import {
  authenticateActiveRunner,
  authenticateRunner,
  recordRunnerContact,
} from '../../services/ci/runners.ts';
import { appendBuildTrace, claimBuild, updateBuildFromRunner } from '../../services/ci/builds.ts';
import { jobPayload } from '../../views/ci-job-views.ts';
import { buildIdSegment, buildToken, runnerInfo } from './runner-params.ts';

// Runners that understand "204 No Content" for "nothing to do" (GitLab 8.12+ asked the same way).
const VERSIONED_RUNNER = /gitlab-ci-multi-runner \d+\.\d+\.\d+(~beta\.\d+\.g[0-9a-f]+)? /;

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/builds/register', async (request, reply) => {
    const params = requestParams(request);
    const runner = await authenticateActiveRunner(deps, optionalString(params, 'token'));
    await recordRunnerContact(deps, runner, runnerInfo(params));
    const buildId = await claimBuild(deps, runner);
    if (buildId !== undefined) {
      reply.code(201);
      return jobPayload(deps, buildId);
    }
    if (VERSIONED_RUNNER.test(String(request.headers['user-agent'] ?? ''))) return reply.code(204).send();
    throw notFound();
  });

  app.put('/builds/:id', async (request, reply) => {
    const params = requestParams(request);
    const runner = await authenticateRunner(deps, optionalString(params, 'token'));
    const outcome = await updateBuildFromRunner(deps, runner, buildIdSegment(request), {
      state: optionalString(params, 'state'),
      trace: optionalString(params, 'trace'),
    });
    await recordRunnerContact(deps, runner, runnerInfo(params));
    // GitLab rendered the transition's result: true or false, null when the state moved nothing.
    return reply.type('application/json').send(JSON.stringify(outcome));
  });

  app.register(async (scope) => {
    // The trace piece streams from the request into the file: no body parser reads it first.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.patch('/builds/:id/trace.txt', async (request, reply) => {
      const range = request.headers['content-range'];
      const { status, length } = await appendBuildTrace(deps, buildIdSegment(request), {
        token: buildToken(request),
        contentRange: typeof range === 'string' ? range : undefined,
        body: request.raw,
      });
      return reply
        .code(202)
        .header('Build-Status', status)
        .header('Range', `0-${length}`)
        .type('application/json')
        .send(JSON.stringify(`0-${length}`));
    });
  });
}
