// Pipelines of a project (GitLab 8.13's lib/api/pipelines.rb): the list (scope `running`, `branches` or
// `tags`; `status` as later versions took it), one pipeline, retry of its failed builds and cancel of
// its pending and running ones. Reporters, and anyone who may read a public or internal project, read;
// developers act.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden, paramValueInvalid } from '../../errors.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginateCapped } from '../../http/pagination.ts';
import { grapeParams, optionalString, pathInteger, requestParams } from '../../http/params.ts';
import { canReadPipelines, canUpdatePipelines } from '../../policies/ci.ts';
import { ALL_STATUSES } from '../../ci/status.ts';
import { cancelPipeline, retryPipeline } from '../../services/ci/pipeline-actions.ts';
import {
  loadPipelineOr404,
  pipelineList,
  loadPipeline,
  listPipelinesOf,
  type PipelineScope,
} from '../../views/pipeline-views.ts';
import type { CiStatus } from '../../domain/types.ts';

const SCOPES: readonly string[] = ['running', 'branches', 'tags'];

async function loadProjectForPipelineReads(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!canReadPipelines(project.access, project.project)) throw forbidden();
  return project;
}

async function loadProjectForPipelineUpdates(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!canUpdatePipelines(project.access, project.project)) throw forbidden();
  return project;
}

/** One of the allowed values, or 400 `<name> does not have a valid value` (Grape's `values:`). */
function oneOf(request: FastifyRequest, name: string, allowed: readonly string[]): string | undefined {
  const value = optionalString(requestParams(request), name);
  if (value === undefined) return undefined;
  if (!allowed.includes(value)) throw paramValueInvalid(name);
  return value;
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/pipelines', async (request, reply) => {
    const params = requestParams(request);
    grapeParams(params, [
      { name: 'page', kind: 'integer', required: false },
      { name: 'per_page', kind: 'integer', required: false },
    ]);
    const scope = oneOf(request, 'scope', SCOPES) as PipelineScope | undefined;
    const status = oneOf(request, 'status', ALL_STATUSES) as CiStatus | undefined;
    const project = await loadProjectForPipelineReads(deps, request);
    const list = await pipelineList(deps, project, scope, status);
    const rows = await paginateCapped(request, reply, deps.config.externalUrl, list.count, list.page);
    return listPipelinesOf(deps, rows);
  });

  app.get('/projects/:id/pipelines/:pipeline_id', async (request) => {
    const id = pathInteger(requestParams(request), 'pipeline_id');
    const project = await loadProjectForPipelineReads(deps, request);
    return loadPipeline(deps, await loadPipelineOr404(deps, project, id));
  });

  app.post('/projects/:id/pipelines/:pipeline_id/retry', async (request, reply) => {
    const id = pathInteger(requestParams(request), 'pipeline_id');
    const project = await loadProjectForPipelineUpdates(deps, request);
    const pipeline = await loadPipelineOr404(deps, project, id);
    const after = await retryPipeline(deps, project, pipeline, requireViewer(request).id);
    return reply.code(201).send(await loadPipeline(deps, after));
  });

  app.post('/projects/:id/pipelines/:pipeline_id/cancel', async (request) => {
    const id = pathInteger(requestParams(request), 'pipeline_id');
    const project = await loadProjectForPipelineUpdates(deps, request);
    const pipeline = await loadPipelineOr404(deps, project, id);
    return loadPipeline(deps, await cancelPipeline(deps, pipeline));
  });
}
