// v4's Todo entity (lib/api/entities/todo.rb): the project as ProjectIdentity, the author as v4's
// UserBasic, `updated_at`, and the target in v4's Issue or MergeRequestBasic entity (closed_by, merged_by
// from the page's closings, read in one batch; the single MR's pipeline and diff_refs would cost git and
// pipeline reads per row, so a todo's MR target leaves them out).
import type { Closing, MergeRequestClosings } from '../../views/issuable-closings.ts';
import { presentIssueV4 } from './issue.ts';
import { presentMergeRequestBasicV4 } from './merge-request.ts';
import { namespaceHumanName } from '../api-v3/project.ts';
import { TODO_ACTION_NAMES, type TodoView } from '../api-v3/todo.ts';
import { presentUserBasic } from './user.ts';

/** The closings of the todos' targets on one page: closed issues, and closed or merged MRs. */
export interface TodoTargetClosings {
  issues: Map<number, Closing>;
  mergeRequests: MergeRequestClosings;
}

export function presentTodoV4(view: TodoView, closings: TodoTargetClosings, baseUrl: string) {
  const { todo, record } = view;
  const { project, namespace } = record;
  const target =
    view.target.type === 'Issue'
      ? presentIssueV4(view.target.view, closings.issues.get(view.target.view.issue.id), baseUrl)
      : presentMergeRequestBasicV4(view.target.view, closings.mergeRequests, baseUrl);
  return {
    id: todo.id,
    project: {
      id: project.id,
      description: project.description,
      name: project.name,
      name_with_namespace: `${namespaceHumanName(namespace, view.projectOwner)} / ${project.name}`,
      path: project.path,
      path_with_namespace: `${namespace.path}/${project.path}`,
      created_at: project.created_at,
    },
    author: presentUserBasic(view.author, baseUrl),
    action_name: TODO_ACTION_NAMES[todo.action] ?? 'marked',
    target_type: todo.target_type,
    target,
    target_url: target.web_url,
    body: view.body,
    state: todo.state,
    created_at: todo.created_at,
    updated_at: todo.updated_at,
  };
}
