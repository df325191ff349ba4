// Groups as a caller sees them: the group list, a group with its own and shared projects, and the
// group's project list. Each page costs a fixed number of queries (ids first, then the page's rows, then
// the project entity's batched extras).
import type { Deps } from '../deps.ts';
import { countGroups, listGroups, type GroupListFilter } from '../db/repositories/namespaces.ts';
import { countGroupProjects, groupProjectIds } from '../db/repositories/group-projects.ts';
import { findProjectRecordsByIds } from '../db/repositories/projects.ts';
import { presentGroup, presentGroupDetail } from '../presenters/api-v3/group.ts';
import { presentProjects } from '../presenters/api-v3/project.ts';
import { listProjectRecordViews } from './project-views.ts';
import type { NamespaceRow, UserRow } from '../db/types.ts';

export function countGroupList(deps: Deps, filter: GroupListFilter): Promise<number> {
  return countGroups(deps.db.kysely, filter);
}

export async function listGroupsPage(
  deps: Deps,
  filter: GroupListFilter,
  page: { offset: number; limit: number },
) {
  const rows = await listGroups(deps.db.kysely, filter, page);
  return rows.map((group) => presentGroup(group, deps.config.externalUrl));
}

/** GroupDetail: the group with the projects of it and shared with it that the viewer may see. */
export async function loadGroupWithProjects(deps: Deps, viewer: UserRow, group: NamespaceRow) {
  const db = deps.db.kysely;
  const [ownIds, sharedIds] = await Promise.all([
    groupProjectIds(db, { groupId: group.id, viewer, own: true, shared: false }),
    groupProjectIds(db, { groupId: group.id, viewer, own: false, shared: true }),
  ]);
  const records = await findProjectRecordsByIds(db, [...ownIds, ...sharedIds]);
  const presented = presentProjects(await listProjectRecordViews(deps, viewer, records), deps.config);
  const own = new Set(ownIds);
  return presentGroupDetail(
    group,
    deps.config.externalUrl,
    presented.filter((project) => own.has(project.id)),
    presented.filter((project) => !own.has(project.id)),
  );
}

const groupProjectsFilter = (viewer: UserRow, group: NamespaceRow) => ({
  groupId: group.id,
  viewer,
  own: true,
  shared: true,
});

export function countGroupProjectList(deps: Deps, viewer: UserRow, group: NamespaceRow): Promise<number> {
  return countGroupProjects(deps.db.kysely, groupProjectsFilter(viewer, group));
}

export async function listGroupProjectsPage(
  deps: Deps,
  viewer: UserRow,
  group: NamespaceRow,
  page: { offset: number; limit: number },
) {
  const db = deps.db.kysely;
  const ids = await groupProjectIds(db, groupProjectsFilter(viewer, group), page);
  const records = await findProjectRecordsByIds(db, ids);
  return presentProjects(await listProjectRecordViews(deps, viewer, records), deps.config);
}
