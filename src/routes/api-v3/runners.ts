// Runners (GitLab 8.13's API::Runners): the caller's specific runners (those of projects they manage),
// every runner for administrators, one runner's details and settings, its removal; and per project, the
// runners it may use, enabling another specific runner for it and taking one away. Shared runners are
// administrators' business; a locked runner stays with its projects.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { loadAdministeredProject } from '../../http/loaders.ts';
import { apiError, forbidden, notFound } from '../../errors.ts';
import { paginate } from '../../http/pagination.ts';
import {
  optionalBoolean,
  optionalOneOf,
  optionalStringList,
  pathId,
  presentAttributes,
  requestParams,
  requiredString,
  type Params,
} from '../../http/params.ts';
import {
  deleteRunnerRefusal,
  enableRunnerRefusal,
  showRunnerRefusal,
  updateRunnerRefusal,
} from '../../policies/ci.ts';
import {
  disableRunnerForProject,
  enableRunnerForProject,
  parseTagList,
  removeRunner,
  updateRunnerSettings,
  type RunnerSettings,
} from '../../services/ci/runners.ts';
import {
  countRunnerList,
  findRunnerById,
  loadRunnerOr404,
  runnerCaller,
  runnerDetails,
  listRunnersPage,
  runnerProjectCount,
  runnerAssignedTo,
  type RunnerListSource,
  type RunnerScope,
} from '../../views/runner-views.ts';
import { presentRunner } from '../../presenters/api-v3/runner.ts';

const ALL_SCOPES: readonly RunnerScope[] = ['specific', 'shared', 'active', 'paused', 'online'];
// The caller's runners are all specific: asking for specific or shared ones makes no sense there.
const OWN_SCOPES: readonly RunnerScope[] = ['active', 'paused', 'online'];

function scopeParam(request: FastifyRequest, allowed: readonly RunnerScope[]): RunnerScope | undefined {
  return optionalOneOf(requestParams(request), 'scope', allowed, () =>
    apiError(400, 'Scope contains invalid value'),
  );
}

function listRunnersOf(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  source: RunnerListSource,
  scope: RunnerScope | undefined,
) {
  return paginate(
    request,
    reply,
    deps.config.externalUrl,
    () => countRunnerList(deps, source, scope),
    (page) => listRunnersPage(deps, source, scope, page),
  );
}

function runnerIdParam(request: FastifyRequest, name = 'id'): number | undefined {
  return pathId((request.params as Record<string, unknown>)[name]);
}

/** Only the settings that were sent and not blank change (attributes_for_keys). */
function runnerSettings(params: Params): RunnerSettings {
  const tags = optionalStringList(params, 'tag_list');
  const tagList = tags === undefined ? undefined : parseTagList(tags);
  return {
    description: presentAttributes(params, ['description']).description,
    active: optionalBoolean(params, 'active'),
    tagList: tagList === undefined || tagList.length === 0 ? undefined : tagList,
    runUntagged: optionalBoolean(params, 'run_untagged'),
    locked: optionalBoolean(params, 'locked'),
  };
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/runners', async (request, reply) => {
    const viewer = requireViewer(request);
    const scope = scopeParam(request, OWN_SCOPES);
    return listRunnersOf(deps, request, reply, { kind: 'user', userId: viewer.id }, scope);
  });

  app.get('/runners/all', async (request, reply) => {
    requireAdmin(request);
    return listRunnersOf(deps, request, reply, { kind: 'all' }, scopeParam(request, ALL_SCOPES));
  });

  app.get('/runners/:id', async (request) => {
    const viewer = requireViewer(request);
    const runner = await loadRunnerOr404(deps, runnerIdParam(request));
    const refusal = showRunnerRefusal(runner, await runnerCaller(deps, viewer, runner));
    if (refusal) throw forbidden(refusal);
    return runnerDetails(deps, viewer, runner);
  });

  app.put('/runners/:id', async (request) => {
    const viewer = requireViewer(request);
    const runner = await loadRunnerOr404(deps, runnerIdParam(request));
    const refusal = updateRunnerRefusal(runner, await runnerCaller(deps, viewer, runner));
    if (refusal) throw forbidden(refusal);
    const updated = await updateRunnerSettings(deps, runner, runnerSettings(requestParams(request)));
    return runnerDetails(deps, viewer, updated);
  });

  app.delete('/runners/:id', async (request) => {
    const viewer = requireViewer(request);
    const runner = await loadRunnerOr404(deps, runnerIdParam(request));
    const caller = await runnerCaller(deps, viewer, runner);
    const refusal = deleteRunnerRefusal(runner, caller, await runnerProjectCount(deps, runner.id));
    if (refusal) throw forbidden(refusal);
    await removeRunner(deps, runner);
    return presentRunner(runner);
  });

  app.get('/projects/:id/runners', async (request, reply) => {
    const project = await loadAdministeredProject(deps, request);
    const scope = scopeParam(request, ALL_SCOPES);
    return listRunnersOf(deps, request, reply, { kind: 'project', projectId: project.project.id }, scope);
  });

  app.post('/projects/:id/runners', async (request, reply) => {
    const project = await loadAdministeredProject(deps, request);
    const viewer = requireViewer(request);
    const runnerId = requiredString(requestParams(request), 'runner_id');
    const runner = await loadRunnerOr404(deps, pathId(runnerId.trim()));
    const refusal = enableRunnerRefusal(runner, await runnerCaller(deps, viewer, runner));
    if (refusal) throw forbidden(refusal);
    await enableRunnerForProject(deps, runner, project.project.id);
    return reply.status(201).send(presentRunner(runner));
  });

  app.delete('/projects/:id/runners/:runner_id', async (request) => {
    const project = await loadAdministeredProject(deps, request);
    const runnerId = runnerIdParam(request, 'runner_id');
    const runner = runnerId === undefined ? undefined : await findRunnerById(deps, runnerId);
    if (!runner || !(await runnerAssignedTo(deps, runner.id, project.project.id))) throw notFound('Runner');
    await disableRunnerForProject(deps, runner, project.project.id);
    return presentRunner(runner);
  });
}
