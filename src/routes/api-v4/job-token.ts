// GET /api/v4/job (lib/api/ci/jobs.rb `get '/job'`): a job's script asks, with its CI_JOB_TOKEN in the
// JOB-TOKEN header or the `job_token` parameter, which job it is. Without a job token a signed-in caller
// gets GitLab's 404 `Job Not Found` (no job is "current" for a personal token), anyone else 401.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { notFound, unauthorized } from '../../errors.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { runningJobOfToken } from '../../views/build-views.ts';

function presentedJobToken(request: FastifyRequest): string | undefined {
  const header = request.headers['job-token'];
  if (typeof header === 'string' && header !== '') return header;
  return optionalString(requestParams(request), 'job_token') || undefined;
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/job', { config: { public: true } }, async (request) => {
    const token = presentedJobToken(request);
    if (token) return runningJobOfToken(deps, token);
    throw request.viewer ? notFound('Job') : unauthorized();
  });
}
