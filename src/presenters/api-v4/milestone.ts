// v4's Milestone entity (lib/api/entities/milestone.rb): v3's fields and the start date, whether its
// due date has passed (`expired`, against today's UTC day) and its page.
import { milestoneWebUrl } from '../../domain/paths.ts';
import type { MilestoneRow, ProjectRecord } from '../../db/types.ts';

export function presentMilestoneV4(milestone: MilestoneRow, record: ProjectRecord, baseUrl: string) {
  const today = new Date().toISOString().slice(0, 10);
  return {
    id: milestone.id,
    iid: milestone.iid,
    project_id: milestone.project_id,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.created_at,
    updated_at: milestone.updated_at,
    due_date: milestone.due_date,
    start_date: milestone.start_date,
    expired: milestone.due_date !== null && milestone.due_date < today,
    web_url: milestoneWebUrl(baseUrl, record, milestone.iid),
  };
}
