// v4's Milestone entity (lib/api/entities/milestone.rb): v3's fields and the start date, whether its
// due date has passed (`expired`, against today's UTC day) and its page.
// A group's milestone shows group_id instead of project_id.
import { groupMilestoneWebUrl, milestoneWebUrl } from '../../domain/paths.ts';
import type { MilestoneRow, NamespaceRow, ProjectRecord } from '../../db/types.ts';

export function presentMilestoneV4(
  milestone: MilestoneRow,
  owner: ProjectRecord | NamespaceRow,
  baseUrl: string,
) {
  const today = new Date().toISOString().slice(0, 10);
  return {
    id: milestone.id,
    iid: milestone.iid,
    ...(milestone.group_id !== null
      ? { group_id: milestone.group_id }
      : { project_id: milestone.project_id }),
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.created_at,
    updated_at: milestone.updated_at,
    due_date: milestone.due_date,
    start_date: milestone.start_date,
    expired: milestone.due_date !== null && milestone.due_date < today,
    web_url:
      'project' in owner
        ? milestoneWebUrl(baseUrl, owner, milestone.iid)
        : groupMilestoneWebUrl(baseUrl, owner.path, milestone.iid),
  };
}
