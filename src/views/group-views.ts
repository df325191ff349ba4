// Groups as a caller sees them: the group list, a group with its own and shared projects, and the
// group's project list. Each page costs a fixed number of queries (ids first, then the page's rows, then
// the project entity's batched extras). Groups come back as rows; the projects as the project list view
// the caller names presents them (each API version has its own), from one batch read.
import type { Deps } from '../deps.ts';
import {
  countGroups,
  listGroups,
  type GroupListFilter,
  type GroupListOrder,
} from '../db/repositories/namespaces.ts';
import { countGroupProjects, groupProjectIds } from '../db/repositories/group-projects.ts';
import { findProjectRecordsByIds } from '../db/repositories/projects.ts';
import type { NamespaceRow, ProjectRecord, UserRow } from '../db/types.ts';

export type { GroupListFilter, GroupListOrder };

/** A project list view: project records in, each presented with what its entity embeds, in order. */
export type ProjectLister<P> = (deps: Deps, viewer: UserRow, records: ProjectRecord[]) => Promise<P[]>;

/** GroupDetail's model: the group, and the projects of it and shared with it that the viewer may see. */
export interface GroupDetailModel<P> {
  group: NamespaceRow;
  projects: P[];
  sharedProjects: P[];
}

export function countGroupList(deps: Deps, filter: GroupListFilter): Promise<number> {
  return countGroups(deps.db.kysely, filter);
}

export function listGroupsPage(
  deps: Deps,
  filter: GroupListFilter,
  page: { offset: number; limit: number },
  order?: GroupListOrder,
): Promise<NamespaceRow[]> {
  return listGroups(deps.db.kysely, filter, page, order);
}

/** The group with the projects of it and shared with it that the viewer may see, presented by `list`. */
export async function loadGroupWithProjects<P extends { id: number }>(
  deps: Deps,
  viewer: UserRow,
  group: NamespaceRow,
  list: ProjectLister<P>,
): Promise<GroupDetailModel<P>> {
  const db = deps.db.kysely;
  const [ownIds, sharedIds] = await Promise.all([
    groupProjectIds(db, { groupId: group.id, viewer, own: true, shared: false }),
    groupProjectIds(db, { groupId: group.id, viewer, own: false, shared: true }),
  ]);
  const records = await findProjectRecordsByIds(db, [...ownIds, ...sharedIds]);
  const presented = await list(deps, viewer, records);
  const own = new Set(ownIds);
  return {
    group,
    projects: presented.filter((project) => own.has(project.id)),
    sharedProjects: presented.filter((project) => !own.has(project.id)),
  };
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

export async function listGroupProjectsPage<P>(
  deps: Deps,
  viewer: UserRow,
  group: NamespaceRow,
  page: { offset: number; limit: number },
  list: ProjectLister<P>,
): Promise<P[]> {
  const db = deps.db.kysely;
  const ids = await groupProjectIds(db, groupProjectsFilter(viewer, group), page);
  return list(deps, viewer, await findProjectRecordsByIds(db, ids));
}
