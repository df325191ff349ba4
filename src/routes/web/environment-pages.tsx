// The environments pages at GitLab 8.13's paths: /<ns>/<p>/environments (`?scope=stopped`), one
// environment with its deployments, and its Stop (a POST; 8.13 offered it where the last deployment
// named an on_stop job, and redirected to the job it started). Reporters read them; developers stop.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden, notFound, paramInvalid } from '../../errors.ts';
import { loadPageProject, type LoadedProject } from '../../http/loaders.ts';
import { optionalInteger, optionalString, pathId, requestParams } from '../../http/params.ts';
import { buildPath } from '../../domain/paths.ts';
import { canCreateEnvironments, canReadEnvironments } from '../../policies/ci.ts';
import { stopEnvironment } from '../../services/ci/environments.ts';
import {
  countEnvironmentList,
  deploymentViews,
  isStoppable,
  lastDeploymentViews,
  listDeploymentsPage,
  listEnvironmentsPage,
  loadEnvironmentOr404,
  type DeploymentView,
} from '../../views/environment-views.ts';
import {
  EnvironmentPage,
  EnvironmentsPage,
  type DeploymentItem,
  type EnvironmentItem,
} from '../../presenters/html/environments.tsx';
import type { EnvironmentRow } from '../../db/types.ts';
import { loadProjectHead } from './project-head.ts';
import { pageContext } from './web-session.ts';
import { sendPage } from './render.ts';

const PER_PAGE = 20;

function pageOf(request: FastifyRequest): number {
  const page = optionalInteger(requestParams(request), 'page') ?? 1;
  if (page < 1 || page > 100_000) throw paramInvalid('page');
  return page;
}

function deploymentItem(view: DeploymentView): DeploymentItem {
  return {
    iid: view.deployment.iid,
    ref: view.deployment.ref,
    sha: view.deployment.sha,
    created_at: view.deployment.created_at,
    user: view.user ? { username: view.user.username } : null,
    job: view.build ? { id: view.build.id, name: view.build.name } : null,
  };
}

function environmentItem(environment: EnvironmentRow, last: DeploymentView | undefined): EnvironmentItem {
  return {
    id: environment.id,
    name: environment.name,
    external_url: environment.external_url,
    state: environment.state,
    last: last ? deploymentItem(last) : null,
  };
}

export function registerEnvironmentPages(web: FastifyInstance, deps: Deps): void {
  const load = async (request: FastifyRequest): Promise<LoadedProject> => {
    const loaded = await loadPageProject(deps, request);
    if (!canReadEnvironments(loaded.access, loaded)) throw forbidden();
    return loaded;
  };
  const environmentOf = async (request: FastifyRequest, loaded: LoadedProject) => {
    const id = pathId((request.params as { id?: string }).id);
    if (id === undefined) throw notFound();
    return loadEnvironmentOr404(deps, loaded.project.id, id);
  };

  web.get('/:namespace/:project/environments', async (request, reply) => {
    const scope = optionalString(requestParams(request), 'scope') === 'stopped' ? 'stopped' : 'available';
    const page = pageOf(request);
    const loaded = await load(request);
    const projectId = loaded.project.id;
    const states = scope === 'stopped' ? ['stopped'] : ['available', 'stopping'];
    const [project, available, stopped, rows] = await Promise.all([
      loadProjectHead(deps, loaded),
      countEnvironmentList(deps, { projectId, states: ['available', 'stopping'] }),
      countEnvironmentList(deps, { projectId, states: ['stopped'] }),
      listEnvironmentsPage(
        deps,
        { projectId, states },
        { limit: PER_PAGE + 1, offset: (page - 1) * PER_PAGE },
      ),
    ]);
    const shown = rows.slice(0, PER_PAGE);
    const last = await lastDeploymentViews(deps, loaded, shown, 'page');
    return sendPage(
      reply,
      <EnvironmentsPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        scope={scope}
        counts={{ available, stopped }}
        environments={shown.map((environment) => environmentItem(environment, last.get(environment.id)))}
        page={page}
        hasNext={rows.length > PER_PAGE}
      />,
    );
  });

  web.get('/:namespace/:project/environments/:id', async (request, reply) => {
    const page = pageOf(request);
    const loaded = await load(request);
    const environment = await environmentOf(request, loaded);
    const filter = { projectId: loaded.project.id, environmentId: environment.id };
    const [project, rows, stoppable] = await Promise.all([
      loadProjectHead(deps, loaded),
      listDeploymentsPage(
        deps,
        filter,
        { by: 'id', sort: 'desc' },
        { limit: PER_PAGE + 1, offset: (page - 1) * PER_PAGE },
      ),
      isStoppable(deps, environment),
    ]);
    const views = await deploymentViews(deps, loaded, rows.slice(0, PER_PAGE), 'page');
    return sendPage(
      reply,
      <EnvironmentPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        environment={environmentItem(environment, undefined)}
        deployments={views.map(deploymentItem)}
        stoppable={stoppable && canCreateEnvironments(loaded.access, loaded) && request.viewer !== null}
        page={page}
        hasNext={rows.length > PER_PAGE}
      />,
    );
  });

  web.post('/:namespace/:project/environments/:id/stop', async (request, reply) => {
    const loaded = await load(request);
    const environment = await environmentOf(request, loaded);
    if (!canCreateEnvironments(loaded.access, loaded) || !request.viewer) throw forbidden();
    // 8.13: a 404 unless the environment can be stopped by its on_stop job.
    if (!(await isStoppable(deps, environment))) throw notFound();
    const { job } = await stopEnvironment(deps, loaded, environment, request.viewer.id);
    const fullPath = `${loaded.namespace.path}/${loaded.project.path}`;
    return reply.redirect(
      job ? buildPath(fullPath, job.id) : `/${fullPath}/environments/${environment.id}`,
      302,
    );
  });
}
