// v4's Todo entity (lib/api/entities/todo.rb): the project as ProjectIdentity, the author as v4's
// UserBasic, `updated_at`, and the target as its entity. The target is the issue or merge request in
// the entity the views read for v3 (v4's Issue and MergeRequest entities live with those routes).
import { presentIssue } from '../api-v3/issue.ts';
import { presentMergeRequest } from '../api-v3/merge-request.ts';
import { namespaceHumanName } from '../api-v3/project.ts';
import { TODO_ACTION_NAMES, type TodoView } from '../api-v3/todo.ts';
import { presentUserBasic } from './user.ts';

export function presentTodoV4(view: TodoView, baseUrl: string) {
  const { todo, record } = view;
  const { project, namespace } = record;
  const target =
    view.target.type === 'Issue'
      ? presentIssue(view.target.view, baseUrl)
      : presentMergeRequest(view.target.view, baseUrl);
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
