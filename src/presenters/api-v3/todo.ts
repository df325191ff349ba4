// GitLab 8.13's Todo entity (lib/api/entities.rb), keys in its order; its target is the Issue or
// MergeRequest entity, presented beforehand (views batch it).
import type { presentIssue } from './issue.ts';
import type { presentMergeRequest } from './merge-request.ts';
import { presentUserBasic } from './user.ts';
import { presentBasicProject } from './project.ts';
import { TodoAction } from '../../domain/types.ts';
import type { ProjectRecord, TodoRow, UserRow } from '../../db/types.ts';

const TODO_ACTIONS: Record<number, string> = {
  [TodoAction.Assigned]: 'assigned',
  [TodoAction.Mentioned]: 'mentioned',
  [TodoAction.BuildFailed]: 'build_failed',
  [TodoAction.Marked]: 'marked',
  [TodoAction.ApprovalRequired]: 'approval_required',
};

export const TODO_ACTION_CODES: Record<string, number> = Object.fromEntries(
  Object.entries(TODO_ACTIONS).map(([code, name]) => [name, Number(code)]),
);

export interface TodoExtras {
  record: ProjectRecord;
  projectOwner: UserRow | null;
  author: UserRow;
  /** The target's Issue or MergeRequest entity. */
  target: ReturnType<typeof presentIssue> | ReturnType<typeof presentMergeRequest>;
  targetUrl: string;
  body: string;
}

export function presentTodo(todo: TodoRow, extras: TodoExtras, baseUrl: string) {
  return {
    id: todo.id,
    project: presentBasicProject(extras.record, extras.projectOwner, baseUrl),
    author: presentUserBasic(extras.author, baseUrl),
    action_name: TODO_ACTIONS[todo.action] ?? 'marked',
    target_type: todo.target_type,
    target: extras.target,
    target_url: extras.targetUrl,
    body: extras.body,
    state: todo.state,
    created_at: todo.created_at,
  };
}
