// The job's log, sent in pieces (network/gitlab.go PatchTrace): PATCH /jobs/:id/trace with the job token
// and `Content-Range: <start>-<end>`, end inclusive (gitlab.go:731). 202 with `Range: 0-<stored bytes>`,
// `Job-Status` and `X-GitLab-Trace-Update-Interval`; 416 with the stored range when the piece does not
// start where the log ends (runner 17 resends from there, patch_response.go NewOffset); 403 with
// `Job-Status` once the job no longer runs.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { appendBuildTrace } from '../../services/ci/builds.ts';
import { buildIdSegment } from '../ci-v1/runner-params.ts';
import { jobToken } from './params.ts';
import { TRACE_UPDATE_INTERVAL_S } from './jobs.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.register(async (scope) => {
    // The piece streams from the request into the file: no body parser reads it first.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.patch('/jobs/:id/trace', async (request, reply) => {
      const range = request.headers['content-range'];
      const { status, length } = await appendBuildTrace(deps, buildIdSegment(request), {
        token: jobToken(request),
        contentRange: typeof range === 'string' ? range : undefined,
        body: request.raw,
        runningOnly: true,
      });
      return reply
        .code(202)
        .header('Job-Status', status)
        .header('Range', `0-${length}`)
        .header('X-GitLab-Trace-Update-Interval', String(TRACE_UPDATE_INTERVAL_S))
        .send();
    });
  });
}
