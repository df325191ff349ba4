// GitLab 8.13's API::Environments and API::Deployments (both since 8.11): reporters list environments
// and deployments and read one deployment, developers create environments (`name`, `external_url`),
// masters edit and delete them (the delete answers the environment). Each environment carries the
// Project entity; each deployment its user, environment and job (the Build entity).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden, paramsMissing } from '../../errors.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginate, paginateCapped } from '../../http/pagination.ts';
import { optionalString, pathInteger, requestParams, type Params } from '../../http/params.ts';
import { canCreateEnvironments, canReadEnvironments, canUpdateEnvironmentsV3 } from '../../policies/ci.ts';
import { createEnvironment, destroyEnvironment, editEnvironment } from '../../services/ci/environments.ts';
import {
  countDeploymentList,
  countEnvironmentList,
  deploymentViews,
  listDeploymentsPage,
  listEnvironmentsPage,
  loadDeploymentOr404,
  loadEnvironmentOr404,
} from '../../views/environment-views.ts';
import { loadProjectView } from '../../views/project-views.ts';
import { presentOneProject } from '../../presenters/api-v3/project.ts';
import { presentDeployment, presentEnvironment } from '../../presenters/api-v3/environment.ts';
import type { EnvironmentRow } from '../../db/types.ts';

type Check = (project: LoadedProject) => boolean;

async function loadWith(deps: Deps, request: FastifyRequest, allowed: Check): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!allowed(project)) throw forbidden();
  return project;
}

const reads: Check = (p) => canReadEnvironments(p.access, p);
const creates: Check = (p) => canCreateEnvironments(p.access, p);
const updates: Check = (p) => canUpdateEnvironmentsV3(p.access, p);

/** Grape's String params: text (numbers from JSON as text); absent stays undefined. */
function text(params: Params, name: string): string | undefined {
  return optionalString(params, name);
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const withProject = async (project: LoadedProject, environments: EnvironmentRow[]) => {
    const shown = presentOneProject(await loadProjectView(deps, project, project.access), deps.config);
    return environments.map((environment) => presentEnvironment(environment, shown ?? null));
  };
  const environmentOf = (request: FastifyRequest, project: LoadedProject) =>
    loadEnvironmentOr404(deps, project.project.id, pathInteger(requestParams(request), 'environment_id'));

  app.get('/projects/:id/environments', async (request, reply) => {
    const project = await loadWith(deps, request, reads);
    const filter = { projectId: project.project.id };
    const rows = await paginate(
      request,
      reply,
      baseUrl,
      () => countEnvironmentList(deps, filter),
      (page) => listEnvironmentsPage(deps, filter, page),
    );
    return withProject(project, rows);
  });

  app.post('/projects/:id/environments', async (request, reply) => {
    const params = requestParams(request);
    const name = text(params, 'name');
    if (name === undefined) throw paramsMissing('name');
    const project = await loadWith(deps, request, creates);
    const environment = await createEnvironment(deps, project.project.id, {
      name,
      external_url: text(params, 'external_url'),
    });
    return reply.status(201).send((await withProject(project, [environment]))[0]);
  });

  app.put('/projects/:id/environments/:environment_id', async (request) => {
    const params = requestParams(request);
    const project = await loadWith(deps, request, updates);
    const environment = await environmentOf(request, project);
    const updated = await editEnvironment(deps, environment, {
      name: text(params, 'name'),
      external_url: text(params, 'external_url'),
    });
    return (await withProject(project, [updated]))[0];
  });

  app.delete('/projects/:id/environments/:environment_id', async (request) => {
    const project = await loadWith(deps, request, updates);
    const environment = await environmentOf(request, project);
    await destroyEnvironment(deps, environment);
    return (await withProject(project, [environment]))[0];
  });

  app.get('/projects/:id/deployments', async (request, reply) => {
    const project = await loadWith(deps, request, reads);
    const filter = { projectId: project.project.id };
    const rows = await paginateCapped(
      request,
      reply,
      baseUrl,
      async (cap) => {
        const counted = await countDeploymentList(deps, filter, cap + 1);
        return counted > cap ? undefined : counted;
      },
      (page) => listDeploymentsPage(deps, filter, { by: 'id', sort: 'asc' }, page),
    );
    return (await deploymentViews(deps, project, rows, 'v3')).map((view) => presentDeployment(view, baseUrl));
  });

  app.get('/projects/:id/deployments/:deployment_id', async (request) => {
    const project = await loadWith(deps, request, reads);
    const id = pathInteger(requestParams(request), 'deployment_id');
    const deployment = await loadDeploymentOr404(deps, project.project.id, id);
    const [view] = await deploymentViews(deps, project, [deployment], 'v3');
    return presentDeployment(view!, baseUrl);
  });
}
