// Runner registration: POST runners/register (the shared registration token or a project's runners token;
// 201 {id, token}) and DELETE runners/delete (the runner's own token).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import {
  optionalBoolean,
  optionalString,
  optionalStringList,
  presentString,
  requestParams,
  requiredString,
} from '../../http/params.ts';
import { authenticateRunner, registerRunner, removeRunner } from '../../services/ci/runners.ts';
import { presentRegisteredRunner, presentRunner } from '../../presenters/api-v3/runner.ts';
import { runnerInfo } from './runner-params.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/runners/register', async (request, reply) => {
    const params = requestParams(request);
    const runner = await registerRunner(deps, {
      token: requiredString(params, 'token'),
      description: presentString(params, 'description'),
      tagList: optionalStringList(params, 'tag_list'),
      runUntagged: optionalBoolean(params, 'run_untagged'),
      locked: optionalBoolean(params, 'locked'),
      info: runnerInfo(params),
    });
    reply.code(201);
    return presentRegisteredRunner(runner);
  });

  app.delete('/runners/delete', async (request) => {
    const params = requestParams(request);
    requiredString(params, 'token');
    const runner = await authenticateRunner(deps, optionalString(params, 'token'));
    await removeRunner(deps, runner);
    return presentRunner(runner);
  });
}
