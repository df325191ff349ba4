// A user's todos, newest first: the page, then its issues and merge requests (as their entities),
// projects, project owners and authors in a fixed number of statements. Todos whose target the user can
// no longer read are left out.
import type { Deps } from '../deps.ts';
import { countTodos, findUserTodo, listTodos, type TodoListFilter } from '../db/repositories/todos.ts';
import { issuesByIds } from '../db/repositories/issues.ts';
import { findProjectRecordsByIds } from '../db/repositories/projects.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { projectAccessMany } from '../policies/access.ts';
import { canReadIssue } from '../policies/issues.ts';
import type { TodoView } from '../presenters/api-v3/todo.ts';
import { mergeRequestsByIds } from '../db/repositories/merge-requests.ts';
import { canReadMergeRequests } from '../policies/merge-requests.ts';
import { loadMergeRequestViews } from './merge-request-views.ts';
import { loadIssueViews } from './issue-views.ts';
import type { Page } from '../http/pagination.ts';
import type { TodoRow, UserRow } from '../db/types.ts';

export type { TodoListFilter };

export async function loadTodoViews(deps: Deps, viewer: UserRow, todos: TodoRow[]): Promise<TodoView[]> {
  if (todos.length === 0) return [];
  const db = deps.db.kysely;
  const targetIds = (type: string) =>
    todos.filter((todo) => todo.target_type === type).map((t) => t.target_id);
  const [issues, mergeRequests, records] = await Promise.all([
    issuesByIds(db, targetIds('Issue')),
    mergeRequestsByIds(db, targetIds('MergeRequest')),
    findProjectRecordsByIds(db, [...new Set(todos.map((todo) => todo.project_id))]),
  ]);
  const byProject = new Map(records.map((record) => [record.project.id, record]));
  const access = await projectAccessMany(db, viewer, records);
  const ownerIds = records.flatMap((record) =>
    record.namespace.type === 'Group' || record.namespace.owner_id === null
      ? []
      : [record.namespace.owner_id],
  );
  const [users, issueViews, mergeRequestViews] = await Promise.all([
    usersByIds(db, [...todos.map((todo) => todo.author_id), ...ownerIds]),
    loadIssueViews(deps, viewer, [...issues.values()], records),
    loadMergeRequestViews(deps, byProject, viewer, [...mergeRequests.values()]),
  ]);
  const issueTargets = new Map(issueViews.map((view) => [view.issue.id, view]));
  const mergeRequestTargets = new Map(mergeRequestViews.map((view) => [view.mr.id, view]));
  return todos.flatMap((todo) => {
    const record = byProject.get(todo.project_id);
    const author = users.get(todo.author_id);
    if (!record || !author) return [];
    const projectAccess = access.get(record.project.id)!;
    let target: TodoView['target'] | undefined;
    let body: string | undefined;
    if (todo.target_type === 'MergeRequest') {
      const mr = mergeRequests.get(todo.target_id);
      if (!mr || !canReadMergeRequests(projectAccess, record)) return [];
      const view = mergeRequestTargets.get(mr.id);
      target = view && { type: 'MergeRequest', view };
      body = mr.title;
    } else {
      const issue = issues.get(todo.target_id);
      if (!issue || !canReadIssue(viewer, projectAccess, record, issue)) return [];
      const view = issueTargets.get(issue.id);
      target = view && { type: 'Issue', view };
      body = issue.title;
    }
    if (!target) return [];
    const owner =
      record.namespace.type === 'Group' || record.namespace.owner_id === null
        ? null
        : (users.get(record.namespace.owner_id) ?? null);
    return [{ todo, record, projectOwner: owner, author, target, body }];
  });
}

export function countTodoList(deps: Deps, filter: TodoListFilter): Promise<number> {
  return countTodos(deps.db.kysely, filter);
}

export async function todoListPage(deps: Deps, viewer: UserRow, filter: TodoListFilter, page: Page) {
  return loadTodoViews(deps, viewer, await listTodos(deps.db.kysely, filter, page.limit, page.offset));
}

export function findTodoOfUser(deps: Deps, userId: number, id: number) {
  return findUserTodo(deps.db.kysely, userId, id);
}
