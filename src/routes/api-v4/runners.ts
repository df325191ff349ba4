// v4's runners API for people (lib/api/ci/runners.rb, the user and admin side; the runners' own protocol
// lives in routes/runner-v4/): the caller's runners, every runner (administrators), one runner's details,
// its settings (`paused` beside `active`), its removal (204); a project's runners, enabling a specific
// runner for it (`runner_id`) and disabling one (204). The policies are v3's: shared runners are
// administrators' business, a locked runner stays with its projects.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { apiError, forbidden, notFound, paramValueInvalid } from '../../errors.ts';
import { ALL_STATUSES } from '../../ci/status.ts';
import type { CiStatus } from '../../domain/types.ts';
import { countRunnerJobs, runnerJobsPage } from '../../views/build-views.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { loadAdministeredProject } from '../../http/loaders.ts';
import { paginate, paginateCapped } from '../../http/pagination.ts';
import {
  optionalBoolean,
  optionalOneOf,
  optionalStringList,
  pathId,
  presentAttributes,
  requestParams,
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
  listRunnerRowsPage,
  loadRunnerOr404,
  runnerAssignedTo,
  runnerCaller,
  runnerDetailsModel,
  runnerProjectCount,
  runnerStatus,
  type RunnerListSource,
  type RunnerScope,
} from '../../views/runner-views.ts';
import { presentRunnerDetailsV4, presentRunnerV4 } from '../../presenters/api-v4/runner.ts';
import type { CiRunnerRow, UserRow } from '../../db/types.ts';
import { noContent, requireParams } from './conventions.ts';

const SCOPES: readonly RunnerScope[] = ['specific', 'shared', 'active', 'paused', 'online'];
/** v4's `type` in the scope it names here (runners are shared or specific to projects). */
const TYPES = { instance_type: 'shared', project_type: 'specific' } as const;

/** `scope`, `type`, `status` or `paused`: the one narrowing a list takes (several at once are refused). */
function narrowingOf(params: Params): RunnerScope | undefined {
  const invalid = (name: string) => () => apiError(400, `${name} does not have a valid value`);
  const scope = optionalOneOf(params, 'scope', SCOPES, invalid('scope'));
  const type = optionalOneOf(params, 'type', ['instance_type', 'project_type'] as const, invalid('type'));
  const status = optionalOneOf(params, 'status', ['active', 'paused', 'online'] as const, invalid('status'));
  const paused = optionalBoolean(params, 'paused');
  const given = [
    scope,
    type === undefined ? undefined : TYPES[type],
    status,
    paused === undefined ? undefined : paused ? 'paused' : 'active',
  ].filter((value): value is RunnerScope => value !== undefined);
  if (given.length > 1) throw apiError(400, 'Only one of scope, type, status and paused at a time');
  return given[0];
}

/** Only the settings that were sent and not blank change; `paused` is the inverse of `active`. */
function settingsOf(params: Params): RunnerSettings {
  const tags = optionalStringList(params, 'tag_list');
  const tagList = tags === undefined ? undefined : parseTagList(tags);
  const paused = optionalBoolean(params, 'paused');
  return {
    description: presentAttributes(params, ['description']).description,
    active: paused === undefined ? optionalBoolean(params, 'active') : !paused,
    tagList: tagList === undefined || tagList.length === 0 ? undefined : tagList,
    runUntagged: optionalBoolean(params, 'run_untagged'),
    locked: optionalBoolean(params, 'locked'),
  };
}

const runnerIdOf = (request: FastifyRequest, name = 'id') =>
  pathId((request.params as Record<string, unknown>)[name]);

export function register(app: FastifyInstance, deps: Deps): void {
  async function list(request: FastifyRequest, reply: FastifyReply, source: RunnerListSource) {
    const scope = narrowingOf(requestParams(request));
    const rows = await paginate(
      request,
      reply,
      deps.config.externalUrl,
      () => countRunnerList(deps, source, scope),
      (page) => listRunnerRowsPage(deps, source, scope, page),
    );
    return rows.map(({ runner, status }) => presentRunnerV4(runner, status));
  }
  const details = async (viewer: UserRow, runner: CiRunnerRow) =>
    presentRunnerDetailsV4(runner, await runnerDetailsModel(deps, viewer, runner));

  app.get('/runners', async (request, reply) =>
    list(request, reply, { kind: 'user', userId: requireViewer(request).id }),
  );

  app.get('/runners/all', async (request, reply) => {
    requireAdmin(request);
    return list(request, reply, { kind: 'all' });
  });

  app.get('/runners/:id', async (request) => {
    const viewer = requireViewer(request);
    const runner = await loadRunnerOr404(deps, runnerIdOf(request));
    const refusal = showRunnerRefusal(runner, await runnerCaller(deps, viewer, runner));
    if (refusal) throw forbidden(refusal);
    return details(viewer, runner);
  });

  // GET /runners/:id/jobs (JobBasicWithProject): administrators, or who manages the runner (a master of
  // one of its projects); `status` one job status, `order_by` id, `sort` desc (default) or asc.
  app.get('/runners/:id/jobs', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const status = optionalOneOf(params, 'status', ALL_STATUSES, () => paramValueInvalid('status'));
    optionalOneOf(params, 'order_by', ['id'] as const, () => paramValueInvalid('order_by'));
    const sort =
      optionalOneOf(params, 'sort', ['asc', 'desc'] as const, () => paramValueInvalid('sort')) ?? 'desc';
    const runner = await loadRunnerOr404(deps, runnerIdOf(request));
    const caller = await runnerCaller(deps, viewer, runner);
    if (!caller.admin && !caller.managesRunner) throw forbidden('No access granted');
    const jobStatus = status as CiStatus | undefined;
    return paginateCapped(
      request,
      reply,
      deps.config.externalUrl,
      (cap) => countRunnerJobs(deps, runner.id, jobStatus, cap),
      async (page) =>
        (await runnerJobsPage(deps, runner.id, jobStatus, sort, page)).map(({ job, record }) => ({
          ...job,
          project: {
            id: record.project.id,
            name: record.project.name,
            name_with_namespace: `${record.namespace.name} / ${record.project.name}`,
            path: record.project.path,
            path_with_namespace: `${record.namespace.path}/${record.project.path}`,
            created_at: record.project.created_at,
          },
        })),
    );
  });

  app.put('/runners/:id', async (request) => {
    const viewer = requireViewer(request);
    const runner = await loadRunnerOr404(deps, runnerIdOf(request));
    const refusal = updateRunnerRefusal(runner, await runnerCaller(deps, viewer, runner));
    if (refusal) throw forbidden(refusal);
    return details(viewer, await updateRunnerSettings(deps, runner, settingsOf(requestParams(request))));
  });

  app.delete('/runners/:id', async (request, reply) => {
    const viewer = requireViewer(request);
    const runner = await loadRunnerOr404(deps, runnerIdOf(request));
    const caller = await runnerCaller(deps, viewer, runner);
    const refusal = deleteRunnerRefusal(runner, caller, await runnerProjectCount(deps, runner.id));
    if (refusal) throw forbidden(refusal);
    await removeRunner(deps, runner);
    return noContent(reply);
  });

  app.get('/projects/:id/runners', async (request, reply) => {
    const project = await loadAdministeredProject(deps, request);
    return list(request, reply, { kind: 'project', projectId: project.project.id });
  });

  app.post('/projects/:id/runners', async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'runner_id');
    const project = await loadAdministeredProject(deps, request);
    const viewer = requireViewer(request);
    const runner = await loadRunnerOr404(deps, pathId(String(params.runner_id).trim()));
    const refusal = enableRunnerRefusal(runner, await runnerCaller(deps, viewer, runner));
    if (refusal) throw forbidden(refusal);
    await enableRunnerForProject(deps, runner, project.project.id);
    return reply.status(201).send(presentRunnerV4(runner, runnerStatus(runner)));
  });

  app.delete('/projects/:id/runners/:runner_id', async (request, reply) => {
    const project = await loadAdministeredProject(deps, request);
    const runnerId = runnerIdOf(request, 'runner_id');
    const runner = runnerId === undefined ? undefined : await findRunnerById(deps, runnerId);
    if (!runner || !(await runnerAssignedTo(deps, runner.id, project.project.id))) throw notFound('Runner');
    await disableRunnerForProject(deps, runner, project.project.id);
    return noContent(reply);
  });
}
