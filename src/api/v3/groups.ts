// Groups (reference/api-v3.md §7.10): list, create (creator becomes owner), show with projects, edit,
// delete, and the group's projects. Groups are found by path first, then id; unreadable ones are 404.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import {
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
import { canAdminGroup } from '../../policies/groups.ts';
import { countGroups, listGroups, type GroupListFilter } from '../../db/repositories/namespaces.ts';
import { countGroupProjects, groupProjectIds } from '../../db/repositories/group-projects.ts';
import { findProjectRecordsByIds } from '../../db/repositories/projects.ts';
import { presentGroup, presentGroupDetail } from '../../presenters/group.ts';
import { presentProjectRecords } from '../../views/project-views.ts';
import { createGroup, deleteGroup, updateGroup, type GroupAttributes } from '../../services/groups.ts';
import type { NamespaceRow, UserRow } from '../../db/types.ts';

function groupAttributes(params: Params): GroupAttributes {
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

function skipGroups(params: Params): number[] {
  const raw = params.skip_groups ?? params['skip_groups[]'];
  if (raw === undefined || raw === null || raw === '') return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((value) => {
    const text = String(value).trim();
    if (!/^\d{1,9}$/.test(text)) throw paramInvalid('skip_groups');
    return Number(text);
  });
}

async function groupDetail(deps: Deps, viewer: UserRow, group: NamespaceRow) {
  const db = deps.db.kysely;
  const [ownIds, sharedIds] = await Promise.all([
    groupProjectIds(db, { groupId: group.id, viewer, own: true, shared: false }),
    groupProjectIds(db, { groupId: group.id, viewer, own: false, shared: true }),
  ]);
  const records = await findProjectRecordsByIds(db, [...ownIds, ...sharedIds]);
  const presented = await presentProjectRecords(deps, viewer, records);
  const own = new Set(ownIds);
  return presentGroupDetail(
    group,
    deps.config.externalUrl,
    presented.filter((project) => own.has(project.id)),
    presented.filter((project) => !own.has(project.id)),
  );
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  app.get('/groups', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const filter: GroupListFilter = {
      memberUserId: viewer.admin === 1 ? undefined : viewer.id,
      search: optionalString(params, 'search') || undefined,
      skipIds: skipGroups(params),
    };
    const db = deps.db.kysely;
    const rows = await paginate(
      request,
      reply,
      baseUrl,
      () => countGroups(db, filter),
      (page) => listGroups(db, filter, page),
    );
    return rows.map((group) => presentGroup(group, baseUrl));
  });

  app.post('/groups', async (request, reply) => {
    const viewer = requireViewer(request);
    if (viewer.can_create_group !== 1 && viewer.admin !== 1) throw forbidden();
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
    return groupDetail(deps, viewer, group);
  });

  app.put('/groups/:id', async (request) => {
    const viewer = requireViewer(request);
    const { group, access } = await loadGroup(deps, request);
    if (!canAdminGroup(access)) throw forbidden();
    const updated = await updateGroup(deps, group, groupAttributes(requestParams(request)));
    return groupDetail(deps, viewer, updated);
  });

  app.delete('/groups/:id', async (request) => {
    const viewer = requireViewer(request);
    const { group, access } = await loadGroup(deps, request);
    if (!canAdminGroup(access)) throw forbidden();
    await deleteGroup(deps, viewer, group);
    return presentGroup(group, baseUrl);
  });

  app.get('/groups/:id/projects', async (request, reply) => {
    const viewer = requireViewer(request);
    const { group } = await loadGroup(deps, request);
    const db = deps.db.kysely;
    const filter = { groupId: group.id, viewer, own: true, shared: true };
    const ids = await paginate(
      request,
      reply,
      baseUrl,
      () => countGroupProjects(db, filter),
      (page) => groupProjectIds(db, filter, page),
    );
    return presentProjectRecords(deps, viewer, await findProjectRecordsByIds(db, ids));
  });
}
