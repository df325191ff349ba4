// The signed-in person's dashboards (GitLab 8.13's dashboard/issues, merge_requests, todos, activity):
// issues and merge requests assigned to (or written by) one user in every project whose issues or merge
// requests the viewer may read, the viewer's pending todos and the events of the viewer's projects. Each
// page is a fixed number of statements: the candidate projects of the person's rows, their access, the
// tab counts, one page of rows and what the API's entities embed for them.
import type { Deps } from '../deps.ts';
import { issueProjectIds } from '../db/repositories/issues.ts';
import {
  countUserMergeRequests,
  listUserMergeRequests,
  OPEN_STATES,
  userMergeRequestProjectIds,
  type UserMergeRequestQuery,
} from '../db/repositories/merge-requests.ts';
import { findProjectRecordsByIds } from '../db/repositories/projects.ts';
import { listMemberProjectEvents } from '../db/repositories/events.ts';
import { projectAccessMany } from '../policies/access.ts';
import { canReadMergeRequests } from '../policies/merge-requests.ts';
import { readableIssueScope } from './issue-views.ts';
import { loadMergeRequestViews } from './merge-request-views.ts';
import { presentMergeRequest } from '../presenters/api-v3/merge-request.ts';
import { presentEventPage } from './event-views.ts';
import { issueListView, type IssueTabState } from './issue-pages.ts';
import { MERGE_REQUEST_TABS, type MergeRequestTabState } from './merge-request-pages.ts';
import { tabCounts } from './tab-counts.ts';
import type { MergeRequestState, ProjectRecord, UserRow } from '../db/types.ts';

/** Whose rows a dashboard lists: assigned to one user, or written by one. */
export interface DashboardPerson {
  assigneeId?: number;
  authorId?: number;
}

/** The rows of one page: how many, after how many. */
export interface PageWindow {
  limit: number;
  offset: number;
}

/** `path_with_namespace` of each record, for the rows' links. */
function projectPaths(records: ProjectRecord[]): Map<number, string> {
  return new Map(
    records.map((record) => [record.project.id, `${record.namespace.path}/${record.project.path}`]),
  );
}

export async function dashboardIssues(
  deps: Deps,
  viewer: UserRow,
  person: DashboardPerson,
  state: IssueTabState,
  page: PageWindow,
) {
  const db = deps.db.kysely;
  const candidates = await findProjectRecordsByIds(db, await issueProjectIds(db, person));
  const scope = await readableIssueScope(db, viewer, candidates);
  const filter = {
    ...person,
    projectIds: scope.projectIds,
    confidential: scope.confidential,
    orderBy: 'created_at',
    sort: 'desc',
  } as const;
  const list = await issueListView(deps, viewer, scope.records, filter, state, page);
  const paths = projectPaths(scope.records);
  return {
    ...list,
    issues: list.issues.map((issue) => ({ ...issue, project_path: paths.get(issue.project_id) ?? '' })),
  };
}

function statesOf(tab: MergeRequestTabState): MergeRequestState[] | null {
  if (tab === 'opened') return OPEN_STATES;
  return tab === 'all' ? null : [tab];
}

export async function dashboardMergeRequests(
  deps: Deps,
  viewer: UserRow,
  person: DashboardPerson,
  state: MergeRequestTabState,
  page: PageWindow,
) {
  const db = deps.db.kysely;
  const candidates = await findProjectRecordsByIds(db, await userMergeRequestProjectIds(db, person));
  const access = await projectAccessMany(db, viewer, candidates);
  const readable = candidates.filter((record) =>
    canReadMergeRequests(access.get(record.project.id)!, record),
  );
  const query = (tab: MergeRequestTabState): UserMergeRequestQuery => ({
    ...person,
    targetProjectIds: readable.map((record) => record.project.id),
    states: statesOf(tab),
  });
  const count = (tab: MergeRequestTabState) => countUserMergeRequests(db, query(tab));
  // One more row than the page tells whether there is a next page.
  const [counts, rows] = await Promise.all([
    tabCounts(MERGE_REQUEST_TABS, count),
    listUserMergeRequests(db, query(state), page.offset, page.limit + 1),
  ]);
  const targets = new Map(readable.map((record) => [record.project.id, record]));
  // The dashboard is drawn from the API's MergeRequest entity (presenters/html takes its shape).
  const views = await loadMergeRequestViews(deps, targets, viewer, rows.slice(0, page.limit));
  const presented = views.map((view) => presentMergeRequest(view, deps.config.externalUrl));
  const paths = projectPaths(readable);
  return {
    counts,
    mergeRequests: presented.map((mr) => ({
      ...mr,
      project_path: paths.get(mr.target_project_id) ?? '',
    })),
    hasNext: rows.length > page.limit,
  };
}

/** Events of the viewer's projects, newest first, each with its project's path. */
export async function dashboardActivity(deps: Deps, viewer: UserRow, page: PageWindow) {
  const db = deps.db.kysely;
  const events = await listMemberProjectEvents(db, viewer.id, page.limit + 1, page.offset);
  const shown = events.slice(0, page.limit);
  const projectIds = [
    ...new Set(shown.flatMap((event) => (event.project_id === null ? [] : [event.project_id]))),
  ];
  const [presented, records] = await Promise.all([
    presentEventPage(deps, shown, viewer),
    findProjectRecordsByIds(db, projectIds),
  ]);
  const paths = projectPaths(records);
  return {
    events: presented.map((event) => ({
      ...event,
      project_path: event.project_id === null ? null : (paths.get(event.project_id) ?? null),
    })),
    hasNext: events.length > page.limit,
  };
}
