// v4's environments and deployments (lib/api/environments.rb, deployments.rb): reporters list
// environments (`name`, `search` of at least 3 characters, `states`) and read one (with its last
// deployment); developers create, edit, stop (`POST …/stop` plays the on_stop job, or stops at once
// without one or with `force`) and delete a stopped one (204). Deployments: list with `order_by` (id,
// iid, created_at, updated_at, ref), `sort`, `status` and `environment`; one; and developers record one
// without a job (`environment`, `sha`, `ref`, `tag`, `status`) and change its status (`PUT`; one a job
// made is refused with 403).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden, grapeError, paramValueInvalid } from '../../errors.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginate, paginateCapped } from '../../http/pagination.ts';
import {
  boundedSearch,
  optionalBoolean,
  optionalOneOf,
  optionalString,
  pathInteger,
  requestParams,
} from '../../http/params.ts';
import { canCreateEnvironments, canDestroyEnvironmentV4, canReadEnvironments } from '../../policies/ci.ts';
import {
  createApiDeployment,
  createEnvironment,
  destroyEnvironment,
  editEnvironment,
  stopEnvironment,
  updateApiDeploymentStatus,
} from '../../services/ci/environments.ts';
import {
  countDeploymentList,
  countEnvironmentList,
  deploymentViews,
  lastDeploymentViews,
  listDeploymentsPage,
  listEnvironmentsPage,
  loadDeploymentOr404,
  loadEnvironmentOr404,
  findEnvironmentNamed,
  type DeploymentFilter,
  type DeploymentOrder,
} from '../../views/environment-views.ts';
import { listBasicProjectViewsByIds } from '../../views/project-views.ts';
import { presentBasicProjectsV4 } from '../../presenters/api-v4/project.ts';
import {
  presentDeploymentV4,
  presentEnvironmentDetailV4,
  presentEnvironmentV4,
} from '../../presenters/api-v4/environment.ts';
import { noContent, requireParams } from './conventions.ts';
import type { EnvironmentRow } from '../../db/types.ts';

const STATES = ['available', 'stopping', 'stopped'] as const;
const ORDERS = ['id', 'iid', 'created_at', 'updated_at', 'ref'] as const;
const SORTS = ['asc', 'desc'] as const;
const DEPLOYMENT_STATUSES = [
  'created',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'blocked',
] as const;
const TIERS = ['production', 'staging', 'testing', 'development', 'other'] as const;
const MIN_SEARCH_LENGTH = 3;

async function loadWith(
  deps: Deps,
  request: FastifyRequest,
  allowed: (project: LoadedProject) => boolean,
): Promise<LoadedProject> {
  requireViewer(request);
  const project = await loadProject(deps, request);
  if (!allowed(project)) throw forbidden();
  return project;
}

const reads = (p: LoadedProject) => canReadEnvironments(p.access, p);
const creates = (p: LoadedProject) => canCreateEnvironments(p.access, p);

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const withProject = async (request: FastifyRequest, project: LoadedProject, rows: EnvironmentRow[]) => {
    const views = await listBasicProjectViewsByIds(deps, [project.project.id], request.viewer);
    const shown = presentBasicProjectsV4(views, deps.config)[0] ?? null;
    return rows.map((environment) => presentEnvironmentV4(environment, shown));
  };
  const environmentOf = (request: FastifyRequest, project: LoadedProject) =>
    loadEnvironmentOr404(deps, project.project.id, pathInteger(requestParams(request), 'environment_id'));
  const environmentParams = (request: FastifyRequest) => {
    const params = requestParams(request);
    if (params.slug !== undefined) {
      throw grapeError(400, 'slug is automatically generated and cannot be changed');
    }
    return {
      name: optionalString(params, 'name'),
      external_url: optionalString(params, 'external_url'),
      tier: optionalOneOf(params, 'tier', TIERS, () => paramValueInvalid('tier')),
    };
  };

  app.get('/projects/:id/environments', async (request, reply) => {
    const params = requestParams(request);
    const name = optionalString(params, 'name');
    const search = boundedSearch(optionalString(params, 'search'));
    if (name !== undefined && search !== undefined) {
      throw grapeError(400, 'name, search cannot be used together');
    }
    const state = optionalOneOf(params, 'states', STATES, () => paramValueInvalid('states'));
    const project = await loadWith(deps, request, reads);
    if (search !== undefined && search !== '' && search.length < MIN_SEARCH_LENGTH) {
      throw grapeError(400, `Search query is less than ${MIN_SEARCH_LENGTH} characters`);
    }
    const filter = {
      projectId: project.project.id,
      name: name === '' ? undefined : name,
      search: search === '' ? undefined : search,
      states: state ? [state] : undefined,
    };
    const rows = await paginate(
      request,
      reply,
      baseUrl,
      () => countEnvironmentList(deps, filter),
      (page) => listEnvironmentsPage(deps, filter, page),
    );
    return withProject(request, project, rows);
  });

  app.get('/projects/:id/environments/:environment_id', async (request) => {
    const project = await loadWith(deps, request, reads);
    const environment = await environmentOf(request, project);
    const last = await lastDeploymentViews(deps, project, [environment], 'v4');
    return presentEnvironmentDetailV4(environment, last.get(environment.id), baseUrl);
  });

  app.post('/projects/:id/environments', async (request, reply) => {
    requireParams(requestParams(request), 'name');
    const attributes = environmentParams(request);
    const project = await loadWith(deps, request, creates);
    const environment = await createEnvironment(deps, project.project.id, {
      ...attributes,
      name: attributes.name!,
    });
    return reply.status(201).send((await withProject(request, project, [environment]))[0]);
  });

  app.put('/projects/:id/environments/:environment_id', async (request) => {
    const attributes = environmentParams(request);
    const project = await loadWith(deps, request, creates);
    const environment = await environmentOf(request, project);
    const updated = await editEnvironment(deps, environment, attributes);
    return (await withProject(request, project, [updated]))[0];
  });

  app.delete('/projects/:id/environments/:environment_id', async (request, reply) => {
    const project = await loadWith(deps, request, reads);
    const environment = await environmentOf(request, project);
    if (!canDestroyEnvironmentV4(project.access, project, environment)) throw forbidden();
    await destroyEnvironment(deps, environment);
    return noContent(reply);
  });

  app.post('/projects/:id/environments/:environment_id/stop', async (request, reply) => {
    const force = optionalBoolean(requestParams(request), 'force') ?? false;
    const project = await loadWith(deps, request, reads);
    const environment = await environmentOf(request, project);
    if (!canCreateEnvironments(project.access, project)) throw forbidden();
    const viewer = requireViewer(request);
    const stopped = await stopEnvironment(deps, project, environment, viewer.id, force);
    return reply.status(200).send((await withProject(request, project, [stopped.environment]))[0]);
  });

  app.get('/projects/:id/deployments', async (request, reply) => {
    const params = requestParams(request);
    const by = optionalOneOf(params, 'order_by', ORDERS, () => paramValueInvalid('order_by')) ?? 'id';
    const sort = optionalOneOf(params, 'sort', SORTS, () => paramValueInvalid('sort')) ?? 'asc';
    const status = optionalOneOf(params, 'status', DEPLOYMENT_STATUSES, () => paramValueInvalid('status'));
    const environmentName = optionalString(params, 'environment');
    const project = await loadWith(deps, request, reads);
    const filter: DeploymentFilter = { projectId: project.project.id, status };
    if (environmentName !== undefined && environmentName !== '') {
      const environment = await findEnvironmentNamed(deps, project.project.id, environmentName);
      // No such environment: nothing deployed to it (an id no environment has).
      filter.environmentId = environment?.id ?? 0;
    }
    const rows = await paginateCapped(
      request,
      reply,
      baseUrl,
      async (cap) => {
        const counted = await countDeploymentList(deps, filter, cap + 1);
        return counted > cap ? undefined : counted;
      },
      (page) => listDeploymentsPage(deps, filter, { by: by as DeploymentOrder, sort }, page),
    );
    return (await deploymentViews(deps, project, rows, 'v4')).map((view) =>
      presentDeploymentV4(view, baseUrl),
    );
  });

  app.get('/projects/:id/deployments/:deployment_id', async (request) => {
    const project = await loadWith(deps, request, reads);
    const id = pathInteger(requestParams(request), 'deployment_id');
    const deployment = await loadDeploymentOr404(deps, project.project.id, id);
    const [view] = await deploymentViews(deps, project, [deployment], 'v4');
    return presentDeploymentV4(view!, baseUrl);
  });

  app.put('/projects/:id/deployments/:deployment_id', async (request) => {
    const params = requestParams(request);
    requireParams(params, 'status');
    const status = optionalOneOf(params, 'status', ['running', 'success', 'failed', 'canceled'], () =>
      paramValueInvalid('status'),
    )!;
    const project = await loadWith(deps, request, creates);
    const id = pathInteger(params, 'deployment_id');
    const deployment = await loadDeploymentOr404(deps, project.project.id, id);
    const updated = await updateApiDeploymentStatus(deps, project, deployment, status);
    const [view] = await deploymentViews(deps, project, [updated], 'v4');
    return presentDeploymentV4(view!, baseUrl);
  });

  app.post('/projects/:id/deployments', async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'environment', 'sha', 'ref', 'tag', 'status');
    const tag = optionalBoolean(params, 'tag')!;
    const status = optionalOneOf(params, 'status', ['running', 'success', 'failed', 'canceled'], () =>
      paramValueInvalid('status'),
    )!;
    const project = await loadWith(deps, request, creates);
    const deployment = await createApiDeployment(deps, project, requireViewer(request).id, {
      environment: optionalString(params, 'environment')!,
      sha: optionalString(params, 'sha')!,
      ref: optionalString(params, 'ref')!,
      tag,
      status,
    });
    const [view] = await deploymentViews(deps, project, [deployment], 'v4');
    return reply.status(201).send(presentDeploymentV4(view!, baseUrl));
  });
}
