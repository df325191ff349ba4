// Groups in v4: the list (search, owned, min_access_level, all_available, order_by, sort), create with a
// string `visibility`, show (GroupDetail, projects unless `with_projects=false`), edit, delete (202, as
// today's GitLab, which deletes groups in the background), and the group's projects. Same loaders,
// policies, services and views as v3. Labrador has no subgroups: a `parent_id` is refused.
import { defaultVisibilityLevel } from '../../services/instance/application-settings.ts';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import {
  blankParam,
  boundedSearch,
  optionalBoolean,
  optionalInteger,
  optionalOneOf,
  presentString,
  requestParams,
  type Params,
} from '../../http/params.ts';
import { apiError, forbidden, paramsMissing, paramValueInvalid } from '../../errors.ts';
import { loadGroup } from '../../http/loaders.ts';
import { canAdminGroup, canCreateGroup, listsEveryNamespace } from '../../policies/groups.ts';
import { minimumVisibilityWithoutMembership } from '../../policies/visibility.ts';
import { AccessLevel, visibilityLevel } from '../../domain/types.ts';
import { presentGroup, presentGroupDetail } from '../../presenters/api-v4/group.ts';
import {
  countGroupList,
  countGroupProjectList,
  listGroupsPage,
  listGroupProjectsPage,
  loadGroupWithProjects,
  type GroupListFilter,
  type GroupListOrder,
} from '../../views/group-views.ts';
import { listProjectRecordViews } from '../../views/project-views.ts';
import { presentProjectsV4 } from '../../presenters/api-v4/project.ts';
import { createGroup, deleteGroup, updateGroup } from '../../services/groups/groups.ts';
import type { ProjectRecord, UserRow } from '../../db/types.ts';
import { groupAttributes, skipGroups } from '../api-v3/groups.ts';
import { checkAvatar, removeAvatarOf, setAvatar } from '../../services/users/avatars.ts';
import { bufferedFile } from '../../http/body-parsers.ts';

/**
 * GroupDetail's and the group project list's entity, batched by the project view. Until v4's project
 * presenter lands beside this module it is the v3 Project entity; this one line then names the v4 one.
 */
const listProjects = async (deps: Deps, viewer: UserRow, records: ProjectRecord[]) =>
  presentProjectsV4(
    await listProjectRecordViews(deps, viewer, records, { forkSourceCounts: true }),
    deps.config,
  );

/** v4's string `visibility` read as v3's `visibility_level`, so v3's attribute reader serves both. */
function v4GroupParams(params: Params): Params {
  if (params.parent_id !== undefined && params.parent_id !== null && params.parent_id !== '') {
    throw apiError(400, 'Labrador has no subgroups: parent_id is not supported');
  }
  const visibility = presentString(params, 'visibility');
  if (visibility === undefined) return params;
  const level = visibilityLevel(visibility);
  if (level === undefined) throw paramValueInvalid('visibility');
  return { ...params, visibility_level: level };
}

function listQuery(viewer: UserRow, params: Params): { filter: GroupListFilter; order: GroupListOrder } {
  const owned = optionalBoolean(params, 'owned') === true;
  const minAccessLevel = owned ? AccessLevel.Owner : optionalInteger(params, 'min_access_level');
  const allAvailable = optionalBoolean(params, 'all_available');
  const filter: GroupListFilter = {
    search: boundedSearch(presentString(params, 'search')) || undefined,
    skipIds: skipGroups(params),
  };
  if (minAccessLevel !== undefined) {
    // Memberships decide, administrators' too.
    filter.memberUserId = viewer.id;
    filter.minAccessLevel = minAccessLevel;
  } else if (listsEveryNamespace(viewer)) {
    // Administrators see every group.
  } else if (allAvailable) {
    filter.visibleTo = { userId: viewer.id, minimumVisibility: minimumVisibilityWithoutMembership(viewer) };
  } else {
    filter.memberUserId = viewer.id;
  }
  const column = optionalOneOf(params, 'order_by', ['name', 'path', 'id'], () =>
    paramValueInvalid('order_by'),
  );
  const direction = optionalOneOf(params, 'sort', ['asc', 'desc'], () => paramValueInvalid('sort'));
  return { filter, order: { column: column ?? 'name', direction: direction ?? 'asc' } };
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  app.get('/groups', async (request, reply) => {
    const viewer = requireViewer(request);
    const { filter, order } = listQuery(viewer, requestParams(request));
    return paginate(
      request,
      reply,
      baseUrl,
      () => countGroupList(deps, filter),
      async (page) => (await listGroupsPage(deps, filter, page, order)).map((g) => presentGroup(g, baseUrl)),
    );
  });

  app.post('/groups', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = v4GroupParams(requestParams(request));
    const name = presentString(params, 'name');
    const path = presentString(params, 'path');
    if (name === undefined || path === undefined) {
      throw paramsMissing(...(name === undefined ? ['name'] : []), ...(path === undefined ? ['path'] : []));
    }
    if (!canCreateGroup(viewer)) throw forbidden();
    const file = bufferedFile(request, 'avatar');
    if (file) checkAvatar(file);
    const attributes = groupAttributes(params);
    attributes.visibility_level ??= await defaultVisibilityLevel(deps.db.kysely, 'group');
    let group = await createGroup(deps, viewer, { ...attributes, name, path });
    if (file) group = { ...group, avatar: await setAvatar(deps, 'group', group.id, file) };
    reply.status(201);
    return presentGroupDetail({ group }, baseUrl);
  });

  app.get('/groups/:id', async (request) => {
    const viewer = requireViewer(request);
    const { group } = await loadGroup(deps, request);
    if (optionalBoolean(requestParams(request), 'with_projects') === false) {
      return presentGroupDetail({ group }, baseUrl);
    }
    return presentGroupDetail(await loadGroupWithProjects(deps, viewer, group, listProjects), baseUrl);
  });

  app.put('/groups/:id', async (request) => {
    const viewer = requireViewer(request);
    const { group, access } = await loadGroup(deps, request);
    const params = v4GroupParams(requestParams(request));
    if (!canAdminGroup(access)) throw forbidden();
    const file = bufferedFile(request, 'avatar');
    if (file) checkAvatar(file);
    let updated = await updateGroup(deps, group, groupAttributes(params));
    if (file) updated = { ...updated, avatar: await setAvatar(deps, 'group', group.id, file) };
    else if (blankParam(params, 'avatar')) {
      // GitLab 15.4: a blank `avatar` removes the group's.
      await removeAvatarOf(deps, 'group', group.id);
      updated = { ...updated, avatar: null };
    }
    return presentGroupDetail(await loadGroupWithProjects(deps, viewer, updated, listProjects), baseUrl);
  });

  app.delete('/groups/:id', async (request, reply) => {
    requireViewer(request);
    const { group, access } = await loadGroup(deps, request);
    if (!canAdminGroup(access)) throw forbidden();
    await deleteGroup(deps, group);
    return reply.status(202).send({ message: '202 Accepted' });
  });

  app.get('/groups/:id/projects', async (request, reply) => {
    const viewer = requireViewer(request);
    const { group } = await loadGroup(deps, request);
    return paginate(
      request,
      reply,
      baseUrl,
      () => countGroupProjectList(deps, viewer, group),
      (page) => listGroupProjectsPage(deps, viewer, group, page, listProjects),
    );
  });
}
