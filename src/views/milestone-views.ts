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
import type { MilestoneRow } from '../db/types.ts';

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
