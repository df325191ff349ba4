// v4's Issue entity (lib/api/entities/issue_basic.rb and issue.rb, keys in GitLab's order) from the view
// v3's Issue is drawn from, with what v4 added: closed_at/closed_by, `assignees` beside `assignee`, the
// references, time_stats and task counts, _links. Labrador keeps one assignee per issue and no time
// tracking, so `assignees` has at most one user and time_stats shows what GitLab shows for an issue
// nobody tracked time on.
import type { IssueView } from '../api-v3/issue.ts';
import { presentMilestone } from '../api-v3/issue.ts';
import { presentUserBasic } from './user.ts';
import { issueWebUrl, projectFullPath } from '../../domain/paths.ts';
import type { Closing } from '../../views/issuable-closings.ts';
import type { ProjectRecord } from '../../db/types.ts';

/** The `- [ ]` / `- [x]` items of a description (GitLab's task_completion_status). */
export function taskCompletion(description: string | null) {
  const items = (description ?? '').match(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[[ xX]\]/gm) ?? [];
  return { count: items.length, completed_count: items.filter((item) => /\[[xX]\]$/.test(item)).length };
}

/** `#4`, `#4`, `group/project#4` (short, relative to its project, full); `!` for merge requests. */
export function references(record: ProjectRecord, sigil: '#' | '!', iid: number) {
  const short = `${sigil}${iid}`;
  return { short, relative: short, full: `${projectFullPath(record)}${short}` };
}

export const NO_TIME_STATS = {
  time_estimate: 0,
  total_time_spent: 0,
  human_time_estimate: null,
  human_total_time_spent: null,
};

export function presentIssueV4(view: IssueView, closing: Closing | undefined, baseUrl: string) {
  const { issue } = view;
  const assignee = view.assignee ? presentUserBasic(view.assignee, baseUrl) : null;
  const tasks = taskCompletion(issue.description);
  const self = `${baseUrl}/api/v4/projects/${issue.project_id}/issues/${issue.iid}`;
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.project_id,
    title: issue.title,
    description: issue.description,
    state: issue.state === 'closed' ? 'closed' : 'opened',
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: closing?.at ?? null,
    closed_by: closing?.by ? presentUserBasic(closing.by, baseUrl) : null,
    labels: view.labels,
    milestone: view.milestone ? presentMilestone(view.milestone) : null,
    assignees: assignee ? [assignee] : [],
    author: presentUserBasic(view.author, baseUrl),
    type: 'ISSUE',
    assignee,
    user_notes_count: view.userNotesCount,
    upvotes: view.upvotes,
    downvotes: view.downvotes,
    due_date: issue.due_date,
    confidential: issue.confidential === 1,
    discussion_locked: null,
    issue_type: 'issue',
    web_url: issueWebUrl(baseUrl, view.record, issue),
    time_stats: NO_TIME_STATS,
    task_completion_status: tasks,
    has_tasks: tasks.count > 0,
    task_status:
      tasks.count > 0 ? `${tasks.completed_count} of ${tasks.count} checklist items completed` : '',
    _links: {
      self,
      notes: `${self}/notes`,
      award_emoji: `${self}/award_emoji`,
      project: `${baseUrl}/api/v4/projects/${issue.project_id}`,
      closed_as_duplicate_of: null,
    },
    references: references(view.record, '#', issue.iid),
    severity: 'UNKNOWN',
    subscribed: view.subscribed,
    moved_to_id: issue.moved_to_id,
    service_desk_reply_to: null,
  };
}
