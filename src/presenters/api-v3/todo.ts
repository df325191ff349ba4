// GitLab 8.13's Todo entity (lib/api/entities.rb), keys in its order; its target is the Issue or
// MergeRequest entity, from the views views/todo-views.ts batch-reads.
import { presentIssue, type IssueView } from './issue.ts';
import { presentMergeRequest, type MergeRequestView } from './merge-request.ts';
import { presentUserBasic } from './user.ts';
import { presentBasicProject } from './project.ts';
import { TodoAction } from '../../domain/types.ts';
import type { ProjectRecord, TodoRow, UserRow } from '../../db/types.ts';

export const TODO_ACTION_NAMES: Record<number, string> = {
  [TodoAction.Assigned]: 'assigned',
  [TodoAction.Mentioned]: 'mentioned',
  [TodoAction.BuildFailed]: 'build_failed',
  [TodoAction.Marked]: 'marked',
  [TodoAction.ApprovalRequired]: 'approval_required',
};

export const TODO_ACTION_CODES: Record<string, number> = Object.fromEntries(
  Object.entries(TODO_ACTION_NAMES).map(([code, name]) => [name, Number(code)]),
);

export interface TodoView {
  todo: TodoRow;
  record: ProjectRecord;
  projectOwner: UserRow | null;
  author: UserRow;
  target: { type: 'Issue'; view: IssueView } | { type: 'MergeRequest'; view: MergeRequestView };
  body: string;
}

export function presentTodo(extras: TodoView, baseUrl: string) {
  const { todo } = extras;
  const target =
    extras.target.type === 'Issue'
      ? presentIssue(extras.target.view, baseUrl)
      : presentMergeRequest(extras.target.view, baseUrl);
  return {
    id: todo.id,
    project: presentBasicProject(extras.record, extras.projectOwner, baseUrl),
    author: presentUserBasic(extras.author, baseUrl),
    action_name: TODO_ACTION_NAMES[todo.action] ?? 'marked',
    target_type: todo.target_type,
    target,
    target_url: target.web_url,
    body: extras.body,
    state: todo.state,
    created_at: todo.created_at,
  };
}
