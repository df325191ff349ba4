// Jobs as runner 17 works them (network/gitlab.go RequestJob, UpdateJob): POST /jobs/request with the
// runner token (201 with the job, 204 when there is none, `X-GitLab-Last-Update` either way) and PUT
// /jobs/:id with the job's token (`state` running/success/failed; 200 with `Job-Status`, 403 with it once
// the job was cancelled or has finished, which makes the runner abort).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { paramValueInvalid } from '../../errors.ts';
import { optionalInteger, optionalString, requestParams } from '../../http/params.ts';
import { authenticateRunner, recordRunnerContact } from '../../services/ci/runners.ts';
import { claimBuild, updateJobFromRunner } from '../../services/ci/builds.ts';
import { canRunnerAskForBuilds } from '../../policies/ci.ts';
import { jobPayloadV4 } from '../../views/ci-job-views.ts';
import { buildIdSegment, runnerInfo } from '../ci-v1/runner-params.ts';
import { jobToken, runnerToken } from './params.ts';

/** How often runner 17 should send its trace (X-GitLab-Trace-Update-Interval, seconds). */
export const TRACE_UPDATE_INTERVAL_S = 3;

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/jobs/request', async (request, reply) => {
    const params = requestParams(request);
    const runner = await authenticateRunner(deps, runnerToken(request));
    await recordRunnerContact(deps, runner, runnerInfo(params));
    // No long polling here: the value only has to change when a new answer may be different, and the
    // runner sends it back as `last_update` (network/gitlab.go getLastUpdate).
    reply.header('X-GitLab-Last-Update', String(Date.now()));
    // A paused runner is told there is nothing (GitLab answers 204 and keeps it registered).
    const buildId = canRunnerAskForBuilds(runner) ? await claimBuild(deps, runner) : undefined;
    if (buildId === undefined) return reply.code(204).send();
    reply.code(201);
    return jobPayloadV4(deps, buildId);
  });

  app.put('/jobs/:id', async (request, reply) => {
    const params = requestParams(request);
    const state = optionalString(params, 'state');
    if (state !== undefined && !['running', 'success', 'failed', 'canceled'].includes(state)) {
      throw paramValueInvalid('state');
    }
    // common/network.go UpdateJobRequest: failure_reason and exit_code beside the state.
    const status = await updateJobFromRunner(deps, buildIdSegment(request), jobToken(request), {
      state,
      failureReason: optionalString(params, 'failure_reason'),
      exitCode: optionalInteger(params, 'exit_code'),
    });
    return reply
      .header('Job-Status', status)
      .header('X-GitLab-Trace-Update-Interval', String(TRACE_UPDATE_INTERVAL_S))
      .type('application/json')
      .send(JSON.stringify(status));
  });
}
