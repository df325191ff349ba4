// Groups: list, create (creator becomes owner), show with projects, edit,
// delete, and the group's projects. Groups are found by path first, then id; unreadable ones are 404.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import {
  boundedSearch,
  optionalBoolean,
  optionalInteger,
  optionalString,
  presentString,
  requestParams,
  requiredString,
  type Params,
} from '../../http/params.ts';
import { forbidden, paramInvalid } from '../../errors.ts';
import { loadGroup } from '../../http/loaders.ts';
import { canAdminGroup, canCreateGroup, listsEveryNamespace } from '../../policies/groups.ts';
import { presentGroup, presentGroupDetail } from '../../presenters/api-v3/group.ts';
import { listProjectRecordViews } from '../../views/project-views.ts';
import { presentProjects } from '../../presenters/api-v3/project.ts';
import type { ProjectRecord, UserRow } from '../../db/types.ts';
import {
  countGroupList,
  countGroupProjectList,
  listGroupsPage,
  listGroupProjectsPage,
  loadGroupWithProjects,
} from '../../views/group-views.ts';
import { createGroup, deleteGroup, updateGroup, type GroupAttributes } from '../../services/groups/groups.ts';

/** GroupDetail's and the group project list's entity: v3's Project, batched by the project view. */
const listProjects = async (deps: Deps, viewer: UserRow, records: ProjectRecord[]) =>
  presentProjects(await listProjectRecordViews(deps, viewer, records), deps.config);

export function groupAttributes(params: Params): GroupAttributes {
  // attributes_for_keys: blank values are "not given".
  const attrs: GroupAttributes = {};
  const name = presentString(params, 'name');
  const path = presentString(params, 'path');
  const description = presentString(params, 'description');
  if (name !== undefined) attrs.name = name;
  if (path !== undefined) attrs.path = path;
  if (description !== undefined) attrs.description = description;
  const visibility = optionalInteger(params, 'visibility_level');
  if (visibility !== undefined) attrs.visibility_level = visibility;
  const lfs = optionalBoolean(params, 'lfs_enabled');
  if (lfs !== undefined) attrs.lfs_enabled = lfs;
  const requestAccess = optionalBoolean(params, 'request_access_enabled');
  if (requestAccess !== undefined) attrs.request_access_enabled = requestAccess;
  return attrs;
}

export function skipGroups(params: Params): number[] {
  const raw = params.skip_groups ?? params['skip_groups[]'];
  if (raw === undefined || raw === null || raw === '') return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((value) => {
    const text = String(value).trim();
    if (!/^\d{1,9}$/.test(text)) throw paramInvalid('skip_groups');
    return Number(text);
  });
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  app.get('/groups', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const filter = {
      memberUserId: listsEveryNamespace(viewer) ? undefined : viewer.id,
      search: boundedSearch(optionalString(params, 'search')) || undefined,
      skipIds: skipGroups(params),
    };
    return paginate(
      request,
      reply,
      baseUrl,
      () => countGroupList(deps, filter),
      async (page) => (await listGroupsPage(deps, filter, page)).map((group) => presentGroup(group, baseUrl)),
    );
  });

  app.post('/groups', async (request, reply) => {
    const viewer = requireViewer(request);
    if (!canCreateGroup(viewer)) throw forbidden();
    const params = requestParams(request);
    const name = requiredString(params, 'name');
    const path = requiredString(params, 'path');
    const group = await createGroup(deps, viewer, { ...groupAttributes(params), name, path });
    reply.status(201);
    return presentGroup(group, baseUrl);
  });

  app.get('/groups/:id', async (request) => {
    const viewer = requireViewer(request);
    const { group } = await loadGroup(deps, request);
    return presentGroupDetail(await loadGroupWithProjects(deps, viewer, group, listProjects), baseUrl);
  });

  app.put('/groups/:id', async (request) => {
    const viewer = requireViewer(request);
    const { group, access } = await loadGroup(deps, request);
    if (!canAdminGroup(access)) throw forbidden();
    const updated = await updateGroup(deps, group, groupAttributes(requestParams(request)));
    return presentGroupDetail(await loadGroupWithProjects(deps, viewer, updated, listProjects), baseUrl);
  });

  app.delete('/groups/:id', async (request) => {
    requireViewer(request);
    const { group, access } = await loadGroup(deps, request);
    if (!canAdminGroup(access)) throw forbidden();
    await deleteGroup(deps, group);
    return presentGroup(group, baseUrl);
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
