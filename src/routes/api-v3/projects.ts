// The projects resource: lists, search, single, create,
// create for a user, edit and delete. Fork, star, archive, share and uploads live with the groups area.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { findUserByIdParam, loadProject } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import { boundedSearch, optionalBoolean, requestParams, requiredString } from '../../http/params.ts';
import {
  assertMayEdit,
  projectAttributes,
  projectListFilters,
  projectListSearch,
  V3_FORMS,
} from '../../http/project-params.ts';
import { forbidden, recordNotFound } from '../../errors.ts';
import { canAdminProject, isProjectOwner } from '../../policies/access.ts';
import {
  createProject,
  deleteProject,
  updateProject,
  type ProjectAttributes,
} from '../../services/projects/projects.ts';
import {
  countProjectList,
  listBasicProjectViewsByIds,
  listProjectRecordViews,
  listProjectViewsByIds,
  listProjectsPage,
  loadProjectView,
} from '../../views/project-views.ts';
import { presentBasicProjects, presentProjects } from '../../presenters/api-v3/project.ts';
import type { ProjectListQuery, ProjectScope, UserRow } from '../../db/types.ts';

function listQuery(request: FastifyRequest, scope: ProjectScope, search?: string): ProjectListQuery {
  const viewer = requireViewer(request);
  const params = requestParams(request);
  const filters = projectListFilters(params, false);
  return {
    scope,
    viewerId: viewer.id,
    external: viewer.external === 1,
    archived: filters.archived,
    visibility: filters.visibility,
    search: boundedSearch(search, 'query') ?? projectListSearch(params),
    searchDescription: search === undefined,
    orderBy: filters.orderBy,
    sort: filters.sort,
  };
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  const list = (
    route: string,
    scope: ProjectScope,
    options: { simple?: boolean; permissions?: boolean; admin?: boolean },
  ) =>
    app.get(route, async (request, reply) => {
      if (options.admin) requireAdmin(request);
      const query = listQuery(request, scope);
      // `simple` is a real boolean (GitLab only checked its presence, so `simple=false` was simple).
      const simple = options.simple === true && optionalBoolean(requestParams(request), 'simple') === true;
      const ids = await paginate(
        request,
        reply,
        baseUrl,
        () => countProjectList(deps, query),
        (page) => listProjectsPage(deps, query, page),
      );
      if (simple) return presentBasicProjects(await listBasicProjectViewsByIds(deps, ids), baseUrl);
      return presentProjects(await listProjectViewsByIds(deps, request.viewer, ids), deps.config, {
        permissions: options.permissions === true,
        runnersToken: true,
      });
    });

  list('/projects', 'member', { simple: true, permissions: true });
  list('/projects/visible', 'visible', { simple: true, permissions: true });
  list('/projects/owned', 'owned', { permissions: true });
  list('/projects/starred', 'starred', {});
  list('/projects/all', 'all', { permissions: true, admin: true });

  app.get('/projects/search/:query', async (request, reply) => {
    const text = String((request.params as { query: string }).query);
    const query = listQuery(request, 'visible', text);
    const ids = await paginate(
      request,
      reply,
      baseUrl,
      () => countProjectList(deps, query),
      (page) => listProjectsPage(deps, query, page),
    );
    return presentProjects(await listProjectViewsByIds(deps, request.viewer, ids), deps.config, {
      runnersToken: true,
    });
  });

  app.get('/projects/:id', async (request) => {
    const loaded = await loadProject(deps, request);
    const view = await loadProjectView(deps, loaded, loaded.access);
    return presentProjects([view], deps.config, { permissions: true, runnersToken: true })[0];
  });

  /** Both create routes: the caller creates for itself, or an administrator for `creator`. */
  const create = async (
    actor: UserRow,
    creator: UserRow,
    attributes: ProjectAttributes,
    limitStyle: 'forbidden' | 'validation',
  ) => {
    const record = await createProject(deps, { actor, creator, attributes, limitStyle });
    const views = await listProjectRecordViews(deps, actor, [record]);
    return presentProjects(views, deps.config, { runnersToken: true })[0];
  };

  app.post('/projects', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    requiredString(params, 'name');
    const attributes = projectAttributes(params, V3_FORMS.create);
    return reply.status(201).send(await create(viewer, viewer, attributes, 'forbidden'));
  });

  app.post('/projects/user/:user_id', async (request, reply) => {
    const viewer = requireAdmin(request);
    const params = requestParams(request);
    const user = await findUserByIdParam(deps, params.user_id);
    if (!user) throw recordNotFound();
    const attributes = projectAttributes(params, V3_FORMS.createForUser);
    return reply.status(201).send(await create(viewer, user, attributes, 'validation'));
  });

  app.put('/projects/:id', async (request) => {
    const viewer = requireViewer(request);
    const loaded = await loadProject(deps, request);
    if (!canAdminProject(loaded.access)) throw forbidden();
    const params = requestParams(request);
    // name is required on edit, but only a *changed* name needs owner rights.
    requiredString(params, 'name');
    const attributes = projectAttributes(params, V3_FORMS.edit);
    assertMayEdit(loaded, attributes);
    const record = await updateProject(deps, { record: loaded, attributes });
    const views = await listProjectRecordViews(deps, viewer, [record]);
    return presentProjects(views, deps.config, { runnersToken: true })[0];
  });

  app.delete('/projects/:id', async (request) => {
    const loaded = await loadProject(deps, request);
    if (!isProjectOwner(loaded.access)) throw forbidden();
    await deleteProject(deps, loaded);
    return true;
  });
}
