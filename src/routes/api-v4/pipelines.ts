// v4's pipelines (lib/api/ci/pipelines.rb) over v3's views and services: the list with v4's filters
// (scope, status, ref, sha, username, source; newest first), one pipeline as Ci::Pipeline with its
// source, user and detailed status, the newest of a ref (`latest`), its jobs and variables, its unit
// test report (and summary) from its jobs' junit artifacts; run one for a ref (POST …/pipeline, source
// `api`), retry, cancel and delete (204, maintainers).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden, paramInvalid, paramValueInvalid, validationFailed } from '../../errors.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginateCapped } from '../../http/pagination.ts';
import {
  optionalBoolean,
  optionalOneOf,
  optionalString,
  pathInteger,
  requestParams,
  type Params,
} from '../../http/params.ts';
import { canAdminBuilds, canReadBuilds, canReadPipelines, canUpdatePipelines } from '../../policies/ci.ts';
import { ALL_STATUSES } from '../../ci/status.ts';
import {
  cancelPipeline,
  createRequestedPipeline,
  deletePipeline,
  retryPipeline,
} from '../../services/ci/pipeline-actions.ts';
import {
  latestPipelineOr404,
  loadPipelineOr404,
  narrowedPipelineList,
  pipelinesWithUsers,
  pipelineVariables,
} from '../../views/pipeline-views.ts';
import { listJobsOf, projectBuildList } from '../../views/build-views.ts';
import { presentPipeline } from '../../presenters/api-v4/pipeline.ts';
import { presentTestReport, presentTestReportSummary } from '../../presenters/api-v4/test-report.ts';
import { pipelineTestSuites } from '../../views/test-report-views.ts';
import type { CiPipelineRow } from '../../db/types.ts';
import type { PipelineVariableInput } from '../../db/repositories/pipeline-variables.ts';
import type { CiStatus, PipelineSource } from '../../domain/types.ts';
import { jobScopeOf } from './jobs.ts';
import { noContent, requireParams } from './conventions.ts';

const SCOPES = ['running', 'pending', 'finished', 'branches', 'tags'] as const;
const SOURCES: readonly PipelineSource[] = [
  'push',
  'web',
  'trigger',
  'api',
  'schedule',
  'merge_request_event',
  'external',
];

async function loadReadable(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!canReadPipelines(project.access, project.project)) throw forbidden();
  return project;
}

async function loadUpdatable(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!canUpdatePipelines(project.access, project.project)) throw forbidden();
  return project;
}

/** v4's order_by (default id) and sort (default desc). */
function orderOf(params: Params) {
  const by =
    optionalOneOf(params, 'order_by', ['id', 'status', 'ref', 'updated_at', 'user_id'] as const, () =>
      paramValueInvalid('order_by'),
    ) ?? 'id';
  const sort =
    optionalOneOf(params, 'sort', ['asc', 'desc'] as const, () => paramValueInvalid('sort')) ?? 'desc';
  return { by, sort };
}

const VARIABLE_KEY = /^[a-zA-Z0-9_]{1,255}$/;

/**
 * `variables`: an array of `{key, value, variable_type}` (form bodies send `variables[][key]`), keys as
 * CI variables spell them, each once; 400 otherwise.
 */
function pipelineVariablesParam(params: Params): PipelineVariableInput[] {
  const given = params.variables;
  if (given === undefined || given === null || given === '') return [];
  const list = Array.isArray(given) ? given : typeof given === 'object' ? Object.values(given) : undefined;
  if (!list) throw paramInvalid('variables');
  const seen = new Set<string>();
  return list.map((entry) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw paramInvalid('variables');
    const { key, value, variable_type: type } = entry as Record<string, unknown>;
    if (typeof key !== 'string' || !VARIABLE_KEY.test(key))
      throw validationFailed({ 'variables.key': ["can contain only letters, digits and '_'."] });
    if (seen.has(key)) throw validationFailed({ 'variables.key': [`(${key}) has already been taken`] });
    seen.add(key);
    if (value !== undefined && value !== null && typeof value !== 'string' && typeof value !== 'number')
      throw paramInvalid('variables');
    if (type !== undefined && type !== null && type !== 'env_var' && type !== 'file')
      throw paramValueInvalid('variables[variable_type]');
    return {
      key,
      value: value === undefined || value === null ? '' : String(value),
      variableType: type === 'file' ? 'file' : 'env_var',
    };
  });
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const present = async (project: LoadedProject, pipelines: CiPipelineRow[]) =>
    (await pipelinesWithUsers(deps, pipelines)).map(({ pipeline, user }) =>
      presentPipeline(pipeline, project, user, baseUrl),
    );
  const presentOne = async (project: LoadedProject, pipeline: CiPipelineRow) =>
    (await present(project, [pipeline]))[0]!;
  const pipelineOf = async (request: FastifyRequest, project: LoadedProject) =>
    loadPipelineOr404(deps, project, pathInteger(requestParams(request), 'pipeline_id'));

  app.get('/projects/:id/pipelines', async (request, reply) => {
    const params = requestParams(request);
    const scope = optionalOneOf(params, 'scope', SCOPES, () => paramValueInvalid('scope'));
    const status = optionalOneOf(params, 'status', ALL_STATUSES, () => paramValueInvalid('status'));
    const source = optionalOneOf(params, 'source', SOURCES, () => paramValueInvalid('source'));
    const order = orderOf(params);
    const project = await loadReadable(deps, request);
    const list = await narrowedPipelineList(
      deps,
      project,
      scope,
      status as CiStatus | undefined,
      {
        ref: optionalString(params, 'ref'),
        sha: optionalString(params, 'sha'),
        source,
        username: optionalString(params, 'username'),
      },
      order,
    );
    const rows = await paginateCapped(request, reply, baseUrl, list.count, list.page);
    return present(project, rows);
  });

  app.get('/projects/:id/pipelines/latest', async (request) => {
    const project = await loadReadable(deps, request);
    const ref = optionalString(requestParams(request), 'ref') ?? project.project.default_branch ?? 'master';
    return presentOne(project, await latestPipelineOr404(deps, project, ref));
  });

  app.get('/projects/:id/pipelines/:pipeline_id', async (request) => {
    const project = await loadReadable(deps, request);
    return presentOne(project, await pipelineOf(request, project));
  });

  app.get('/projects/:id/pipelines/:pipeline_id/jobs', async (request, reply) => {
    const project = await loadReadable(deps, request);
    const pipeline = await pipelineOf(request, project);
    const list = projectBuildList(deps, {
      projectId: project.project.id,
      pipelineIds: [pipeline.id],
      statuses: jobScopeOf(request),
      latestOnly: !optionalBoolean(requestParams(request), 'include_retried'),
    });
    const rows = await paginateCapped(request, reply, baseUrl, list.count, list.page);
    return listJobsOf(deps, project, rows);
  });

  app.get('/projects/:id/pipelines/:pipeline_id/variables', async (request) => {
    const project = await loadReadable(deps, request);
    const variables = await pipelineVariables(deps, await pipelineOf(request, project));
    return variables.map(({ key, value, variableType }) => ({ variable_type: variableType, key, value }));
  });

  // GitLab's read_build: the pipeline's jobs must be readable.
  const loadTestReport = async (request: FastifyRequest) => {
    const project = await loadReadable(deps, request);
    if (!canReadBuilds(project.access, project.project)) throw forbidden();
    return pipelineTestSuites(deps, await pipelineOf(request, project));
  };

  app.get('/projects/:id/pipelines/:pipeline_id/test_report', async (request) =>
    presentTestReport(await loadTestReport(request)),
  );

  app.get('/projects/:id/pipelines/:pipeline_id/test_report_summary', async (request) =>
    presentTestReportSummary(await loadTestReport(request)),
  );

  app.post('/projects/:id/pipeline', async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'ref');
    const variables = pipelineVariablesParam(params);
    const project = await loadUpdatable(deps, request);
    const ref = optionalString(params, 'ref')!;
    const viewer = requireViewer(request);
    const pipeline = await createRequestedPipeline(deps, project, viewer.id, ref, 'api', variables);
    return reply.code(201).send(await presentOne(project, pipeline));
  });

  app.post('/projects/:id/pipelines/:pipeline_id/retry', async (request, reply) => {
    const project = await loadUpdatable(deps, request);
    const pipeline = await pipelineOf(request, project);
    const after = await retryPipeline(deps, project, pipeline, requireViewer(request).id);
    return reply.code(201).send(await presentOne(project, after));
  });

  app.post('/projects/:id/pipelines/:pipeline_id/cancel', async (request) => {
    const project = await loadUpdatable(deps, request);
    return presentOne(project, await cancelPipeline(deps, await pipelineOf(request, project)));
  });

  app.delete('/projects/:id/pipelines/:pipeline_id', async (request, reply) => {
    const project = await loadProject(deps, request);
    if (!canReadPipelines(project.access, project.project)) throw forbidden();
    const pipeline = await pipelineOf(request, project);
    if (!canAdminBuilds(project.access, project)) throw forbidden();
    await deletePipeline(deps, pipeline);
    return noContent(reply);
  });
}
