// Milestones of a project or group, newest first, paginated; one milestone; a milestone's issues.
import type { Deps } from '../deps.ts';
import {
  countMilestones,
  findGroupMilestone,
  findOwnProjectMilestone,
  listMilestones,
  type MilestoneListFilter,
} from '../db/repositories/milestones.ts';
import { presentMilestone } from '../presenters/api-v3/issue.ts';
import type { Page } from '../http/pagination.ts';
import type { MilestoneRow, ProjectRecord, UserRow } from '../db/types.ts';
import { findProjectRecordsByIds } from '../db/repositories/projects.ts';
import { authorizedProjectIds } from '../db/repositories/project-lists.ts';
import { namespaceProjectIds } from '../db/repositories/group-projects.ts';
import { projectAccessMany } from '../policies/access.ts';
import { canReadMilestones } from '../policies/issues.ts';

export type { MilestoneListFilter };

export function countMilestoneList(deps: Deps, filter: MilestoneListFilter): Promise<number> {
  return countMilestones(deps.db.kysely, filter);
}

export async function milestoneListPage(deps: Deps, filter: MilestoneListFilter, page: Page) {
  return (await listMilestones(deps.db.kysely, filter, page.limit, page.offset)).map(presentMilestone);
}

/** A page of a project's milestones as rows (v4 presents them itself). */
export function milestoneRowsPage(
  deps: Deps,
  filter: MilestoneListFilter,
  page: Page,
): Promise<MilestoneRow[]> {
  return listMilestones(deps.db.kysely, filter, page.limit, page.offset);
}

export function findMilestoneOfProject(
  deps: Deps,
  projectId: number,
  id: number,
): Promise<MilestoneRow | undefined> {
  return findOwnProjectMilestone(deps.db.kysely, projectId, id);
}

export function findMilestoneOfGroup(
  deps: Deps,
  groupId: number,
  id: number,
): Promise<MilestoneRow | undefined> {
  return findGroupMilestone(deps.db.kysely, groupId, id);
}

/**
 * The projects whose milestones a search across projects reaches: the caller's (as GET /issues?scope=all
 * takes them) or a group's, each kept only where the caller may read milestones.
 */
export async function readableMilestoneProjects(
  deps: Deps,
  viewer: UserRow,
  of: { groupId: number } | 'mine',
): Promise<ProjectRecord[]> {
  const db = deps.db.kysely;
  const candidates =
    of === 'mine'
      ? (await authorizedProjectIds(db, viewer.id).execute()).map((row) => row.id)
      : await namespaceProjectIds(db, of.groupId);
  const records = await findProjectRecordsByIds(db, candidates);
  const access = await projectAccessMany(db, viewer, records);
  return records.filter((record) => canReadMilestones(access.get(record.project.id)!, record));
}
