// The projects resource: lists, search, single, create,
// create for a user, edit and delete. Fork, star, archive, share and uploads live with the groups area.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { findUserByIdParam, loadProject } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import {
  boundedSearch,
  optionalBoolean,
  optionalInteger,
  optionalString,
  presentString,
  requestParams,
  requiredString,
  toBoolean,
  type Params,
} from '../../http/params.ts';
import { forbidden, paramValueInvalid, recordNotFound, validationFailed } from '../../errors.ts';
import { canAdminProject, isProjectOwner } from '../../policies/access.ts';
import {
  createProject,
  deleteProject,
  FEATURE_SWITCHES,
  updateProject,
  type ProjectAttributes,
} from '../../services/projects/projects.ts';
import {
  countProjectList,
  listProjectsPage,
  listBasicProjectsByIds,
  listProjectsByIds,
  listProjectRecords,
  loadProjectWithAccess,
} from '../../views/project-views.ts';
import { Visibility, visibilityLevel } from '../../domain/types.ts';
import type { ProjectListQuery, ProjectOrder, ProjectScope, UserRow } from '../../db/types.ts';

type AttributeForm = 'create' | 'create-for-user' | 'edit';

function projectAttributes(params: Params, form: AttributeForm): ProjectAttributes {
  const attributes: ProjectAttributes = {};
  const name = presentString(params, 'name');
  if (name !== undefined) attributes.name = name;
  const path = presentString(params, 'path');
  if (path !== undefined) attributes.path = path;
  const description = presentString(params, 'description');
  if (description !== undefined) attributes.description = description;
  if (form === 'create') {
    const namespaceId = presentString(params, 'namespace_id');
    if (namespaceId !== undefined) {
      if (!/^\d{1,9}$/.test(namespaceId.trim())) throw validationFailed({ namespace: ['is not valid'] });
      attributes.namespace_id = Number(namespaceId);
    }
  }
  if (form !== 'edit') {
    const importUrl = presentString(params, 'import_url');
    if (importUrl !== undefined) attributes.import_url = importUrl.trim();
  }
  if (form !== 'create') {
    const defaultBranch = presentString(params, 'default_branch');
    if (defaultBranch !== undefined) attributes.default_branch = defaultBranch;
  }
  const level = optionalInteger(params, 'visibility_level');
  if (level !== undefined) attributes.visibility_level = level;
  else {
    // `public` maps true → 20 and false → 0, and is ignored when visibility_level is given.
    const isPublic = toBoolean(params, 'public');
    if (isPublic !== undefined)
      attributes.visibility_level = isPublic ? Visibility.Public : Visibility.Private;
  }
  for (const key of FEATURE_SWITCHES) {
    const value = optionalBoolean(params, key);
    if (value !== undefined) attributes[key] = value;
  }
  return attributes;
}

const ORDERS = new Set<ProjectOrder>(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at']);

function listQuery(request: FastifyRequest, scope: ProjectScope, search?: string): ProjectListQuery {
  const viewer = requireViewer(request);
  const params = requestParams(request);
  const orderBy = optionalString(params, 'order_by') as ProjectOrder | undefined;
  const visibilityWord = presentString(params, 'visibility');
  let visibility: number | undefined;
  if (visibilityWord !== undefined) {
    visibility = visibilityLevel(visibilityWord);
    if (visibility === undefined) throw paramValueInvalid('visibility');
  }
  return {
    scope,
    viewerId: viewer.id,
    external: viewer.external === 1,
    archived: toBoolean(params, 'archived'),
    visibility,
    search: boundedSearch(search, 'query') ?? boundedSearch(presentString(params, 'search')),
    searchDescription: search === undefined,
    orderBy: orderBy !== undefined && ORDERS.has(orderBy) ? orderBy : 'created_at',
    sort: optionalString(params, 'sort') === 'asc' ? 'asc' : 'desc',
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
      if (simple) return listBasicProjectsByIds(deps, ids);
      return listProjectsByIds(deps, request.viewer, ids, {
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
    return listProjectsByIds(deps, request.viewer, ids, { runnersToken: true });
  });

  app.get('/projects/:id', async (request) => {
    const loaded = await loadProject(deps, request);
    return loadProjectWithAccess(deps, loaded, loaded.access, { permissions: true, runnersToken: true });
  });

  /** Both create routes: the caller creates for itself, or an administrator for `creator`. */
  const create = async (
    actor: UserRow,
    creator: UserRow,
    attributes: ProjectAttributes,
    limitStyle: 'forbidden' | 'validation',
  ) => {
    const record = await createProject(deps, { actor, creator, attributes, limitStyle });
    const [presented] = await listProjectRecords(deps, actor, [record], { runnersToken: true });
    return presented;
  };

  app.post('/projects', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    requiredString(params, 'name');
    const attributes = projectAttributes(params, 'create');
    return reply.status(201).send(await create(viewer, viewer, attributes, 'forbidden'));
  });

  app.post('/projects/user/:user_id', async (request, reply) => {
    const viewer = requireAdmin(request);
    const params = requestParams(request);
    const user = await findUserByIdParam(deps, params.user_id);
    if (!user) throw recordNotFound();
    const attributes = projectAttributes(params, 'create-for-user');
    return reply.status(201).send(await create(viewer, user, attributes, 'validation'));
  });

  app.put('/projects/:id', async (request) => {
    const viewer = requireViewer(request);
    const loaded = await loadProject(deps, request);
    if (!canAdminProject(loaded.access)) throw forbidden();
    const params = requestParams(request);
    // name is required on edit, but only a *changed* name needs owner rights.
    requiredString(params, 'name');
    const attributes = projectAttributes(params, 'edit');
    const renames = attributes.name !== undefined && attributes.name !== loaded.project.name;
    const changesVisibility =
      attributes.visibility_level !== undefined &&
      attributes.visibility_level !== loaded.project.visibility_level;
    if ((renames || changesVisibility) && !isProjectOwner(loaded.access)) throw forbidden();
    const record = await updateProject(deps, { record: loaded, attributes });
    const [presented] = await listProjectRecords(deps, viewer, [record], { runnersToken: true });
    return presented;
  });

  app.delete('/projects/:id', async (request) => {
    const loaded = await loadProject(deps, request);
    if (!isProjectOwner(loaded.access)) throw forbidden();
    await deleteProject(deps, loaded);
    return true;
  });
}
