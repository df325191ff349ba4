// Runners registering themselves (network/gitlab.go RegisterRunner, VerifyRunner, UnregisterRunner,
// ResetToken): POST /runners with a registration token (201 {id, token, token_expires_at}), POST
// /runners/verify (200, or 403 for a token we do not know), DELETE /runners (204), POST
// /runners/reset_authentication_token (201 with the new token). And GitLab 16's creation flow, POST
// /user/runners by a signed-in person, whose `glrt-` token `gitlab-runner register --token` verifies.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { badRequest, forbidden, paramValueInvalid, unauthorized } from '../../errors.ts';
import { resolveViewer } from '../../http/auth.ts';
import { loadProject } from '../../http/loaders.ts';
import {
  optionalBoolean,
  optionalInteger,
  optionalString,
  optionalStringList,
  presentString,
  requestParams,
  requiredString,
} from '../../http/params.ts';
import {
  authenticateRunner,
  createRunner,
  recordRunnerContact,
  registerRunner,
  removeRunner,
  resetRunnerAuthenticationToken,
} from '../../services/ci/runners.ts';
import { canAdminProject } from '../../policies/access.ts';
import { isAdministrator } from '../../policies/users.ts';
import { runnerInfo } from '../ci-v1/runner-params.ts';
import { runnerToken } from './params.ts';

/** Runner tokens do not expire here (GitLab's token_expires_at is null unless an expiry is configured). */
function credentials(runner: { id: number; token: string }) {
  return { id: runner.id, token: runner.token, token_expires_at: null };
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/runners', async (request, reply) => {
    const params = requestParams(request);
    const runner = await registerRunner(deps, {
      token: requiredString(params, 'token'),
      description: presentString(params, 'description'),
      tagList: optionalStringList(params, 'tag_list'),
      runUntagged: optionalBoolean(params, 'run_untagged'),
      locked: optionalBoolean(params, 'locked'),
      info: runnerInfo(params),
      paused: optionalBoolean(params, 'paused'),
    });
    reply.code(201);
    return credentials(runner);
  });

  app.post('/runners/verify', async (request) => {
    const runner = await authenticateRunner(deps, runnerToken(request));
    await recordRunnerContact(deps, runner, runnerInfo(requestParams(request)));
    return credentials(runner);
  });

  app.delete('/runners', async (request, reply) => {
    const runner = await authenticateRunner(deps, runnerToken(request));
    await removeRunner(deps, runner);
    return reply.code(204).send();
  });

  app.post('/runners/reset_authentication_token', async (request, reply) => {
    const runner = await authenticateRunner(deps, runnerToken(request));
    const token = await resetRunnerAuthenticationToken(deps, runner);
    reply.code(201);
    return { token, token_expires_at: null };
  });

  app.post('/user/runners', async (request, reply) => {
    await resolveViewer(deps, request);
    const viewer = request.viewer;
    if (!viewer) throw unauthorized();
    const params = requestParams(request);
    const type = requiredString(params, 'runner_type');
    let projectId: number | undefined;
    if (type === 'instance_type') {
      if (!isAdministrator(viewer)) throw forbidden();
    } else if (type === 'project_type') {
      const id = optionalInteger(params, 'project_id');
      if (id === undefined) throw badRequest('project_id');
      const project = await loadProject(deps, request, String(id));
      if (!canAdminProject(project.access)) throw forbidden();
      projectId = project.project.id;
    } else {
      throw paramValueInvalid('runner_type');
    }
    const runner = await createRunner(deps, {
      projectId,
      description: optionalString(params, 'description'),
      tagList: optionalStringList(params, 'tag_list'),
      runUntagged: optionalBoolean(params, 'run_untagged'),
      locked: optionalBoolean(params, 'locked'),
      paused: optionalBoolean(params, 'paused'),
    });
    reply.code(201);
    return credentials(runner);
  });
}
