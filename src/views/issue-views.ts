// Issue pages: the page's issue ids from an index walk, then everything the Issue entity embeds for the
// whole page in a fixed number of statements (projects, users, milestones, labels, votes, note counts,
// the viewer's subscriptions); the routes present them (presenters/api-v3/issue.ts).
import type { Deps } from '../deps.ts';
import {
  countIssuesUpTo,
  findProjectIssue,
  findIssuesByIids,
  findIssueCounts,
  issueProjectIds,
  labelTitlesByTarget,
  listIssues,
  userNoteCounts,
  voteCounts,
  type IssueListFilter,
} from '../db/repositories/issues.ts';
import { findProjectRecordsByIds } from '../db/repositories/projects.ts';
import { authorizedProjectIds } from '../db/repositories/project-lists.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { milestonesByIds } from '../db/repositories/milestones.ts';
import { subscriptionsOf } from '../db/repositories/subscriptions.ts';
import { participatedIds } from '../db/repositories/participants.ts';
import { namespaceProjectIds } from '../db/repositories/group-projects.ts';
import { projectAccessMany, type ProjectAccess } from '../policies/access.ts';
import { canReadConfidentialIssues, canReadIssues } from '../policies/issues.ts';
import type { IssueView } from '../presenters/api-v3/issue.ts';
import type { Page } from '../http/pagination.ts';
import type { Executor, IssueRow, NamespaceRow, ProjectRecord, UserRow } from '../db/types.ts';

export type { IssueListFilter };

/**
 * What the Issue entity embeds, for a page of issues in a fixed number of statements (an issue whose
 * project or author is gone is left out). A signed-out visitor of a public project's pages is a viewer
 * too: subscribed to nothing.
 */
export async function loadIssueViews(
  deps: Deps,
  viewer: UserRow | null,
  issues: IssueRow[],
  knownRecords: ProjectRecord[] = [],
): Promise<IssueView[]> {
  if (issues.length === 0) return [];
  const db = deps.db.kysely;
  const ids = issues.map((issue) => issue.id);
  const records = new Map(knownRecords.map((record) => [record.project.id, record]));
  const missingProjects = [...new Set(issues.map((i) => i.project_id))].filter((id) => !records.has(id));
  const userIds = issues.flatMap((issue) => [
    issue.author_id,
    ...(issue.assignee_id === null ? [] : [issue.assignee_id]),
  ]);
  const milestoneIds = issues.flatMap((issue) => (issue.milestone_id === null ? [] : [issue.milestone_id]));
  const [projects, users, milestones, labels, votes, notes, subscriptions, participated] = await Promise.all([
    findProjectRecordsByIds(db, missingProjects),
    usersByIds(db, userIds),
    milestonesByIds(db, milestoneIds),
    labelTitlesByTarget(db, 'Issue', ids),
    voteCounts(db, 'Issue', ids),
    userNoteCounts(db, 'Issue', ids),
    viewer ? subscriptionsOf(db, 'Issue', ids, viewer.id) : new Map<number, boolean>(),
    viewer ? participatedIds(db, 'Issue', viewer.id, ids) : new Set<number>(),
  ]);
  for (const record of projects) records.set(record.project.id, record);
  const views: IssueView[] = [];
  for (const issue of issues) {
    const record = records.get(issue.project_id);
    const author = users.get(issue.author_id);
    if (!record || !author) continue; // deleted meanwhile
    const participant =
      viewer !== null &&
      (issue.author_id === viewer.id || issue.assignee_id === viewer.id || participated.has(issue.id));
    const vote = votes.get(issue.id);
    views.push({
      issue,
      record,
      labels: labels.get(issue.id) ?? [],
      milestone: issue.milestone_id === null ? null : (milestones.get(issue.milestone_id) ?? null),
      assignee: issue.assignee_id === null ? null : (users.get(issue.assignee_id) ?? null),
      author,
      subscribed: subscriptions.get(issue.id) ?? participant,
      userNotesCount: notes.get(issue.id) ?? 0,
      upvotes: vote?.up ?? 0,
      downvotes: vote?.down ?? 0,
    });
  }
  return views;
}

export async function loadIssueView(
  deps: Deps,
  viewer: UserRow | null,
  issue: IssueRow,
  record?: ProjectRecord,
): Promise<IssueView> {
  const [view] = await loadIssueViews(deps, viewer, [issue], record ? [record] : []);
  return view!;
}

/**
 * X-Total of an issue list: the project's kept counts when the list is a whole project's (or its open or
 * closed part) as the viewer sees it, else a count that stops at `cap` (undefined past it).
 */
export async function countIssueList(
  deps: Deps,
  filter: IssueListFilter,
  cap: number,
): Promise<number | undefined> {
  const db = deps.db.kysely;
  const plain =
    filter.projectIds?.length === 1 &&
    filter.authorId === undefined &&
    filter.assigneeId === undefined &&
    !filter.search &&
    filter.iid === undefined &&
    filter.iids === undefined &&
    !filter.createdAfter &&
    !filter.createdBefore &&
    !filter.updatedAfter &&
    !filter.updatedBefore &&
    filter.milestoneId === undefined &&
    filter.milestoneTitle === undefined &&
    !filter.noMilestone &&
    (filter.labels?.titles.length ?? 0) === 0 &&
    filter.labelled === undefined &&
    filter.confidential === undefined;
  if (plain) {
    const counts = await findIssueCounts(db, filter.projectIds![0]!);
    if (filter.state === 'opened') return counts.opened;
    if (filter.state === 'closed') return counts.total - counts.opened;
    return counts.total;
  }
  const counted = await countIssuesUpTo(db, filter, cap);
  return counted > cap ? undefined : counted;
}

export async function issueListPage(
  deps: Deps,
  viewer: UserRow | null,
  filter: IssueListFilter,
  page: Pick<Page, 'limit' | 'offset'>,
  knownRecords: ProjectRecord[] = [],
) {
  const issues = await listIssues(deps.db.kysely, filter, page.limit, page.offset);
  return loadIssueViews(deps, viewer, issues, knownRecords);
}

/**
 * One project's issues as the viewer may list them (the project already readable to the viewer): every
 * confidential one for reporters and up, else only the viewer's own (see readableIssueScope for many).
 */
export function projectIssueScope(
  viewer: UserRow | null,
  project: ProjectRecord & { access: ProjectAccess },
): Pick<IssueListFilter, 'projectIds' | 'confidential'> {
  return {
    projectIds: [project.project.id],
    // A signed-out visitor (id 0 is no user's) sees no confidential issue.
    confidential: canReadConfidentialIssues(project.access)
      ? undefined
      : { viewerId: viewer?.id ?? 0, visibleInProjects: [] },
  };
}

/** A group's issues come from its projects whose issues the viewer may read (see readableIssueScope). */
export async function groupIssueScope(db: Executor, viewer: UserRow, group: NamespaceRow) {
  return readableIssueScope(
    db,
    viewer,
    await findProjectRecordsByIds(db, await namespaceProjectIds(db, group.id)),
  );
}

/**
 * Of these projects, those whose issues the viewer may read; confidential issues from the projects where
 * the viewer is a reporter or more, elsewhere only the viewer's own.
 */
export async function readableIssueScope(
  db: Executor,
  viewer: UserRow,
  records: ProjectRecord[],
): Promise<{
  projectIds: number[];
  confidential: IssueListFilter['confidential'] | undefined;
  records: ProjectRecord[];
}> {
  const access = await projectAccessMany(db, viewer, records);
  const readable = records.filter((record) => canReadIssues(access.get(record.project.id)!, record));
  const seeAll = readable.filter((record) => canReadConfidentialIssues(access.get(record.project.id)!));
  return {
    projectIds: readable.map((record) => record.project.id),
    confidential:
      seeAll.length === readable.length
        ? undefined
        : { viewerId: viewer.id, visibleInProjects: seeAll.map((record) => record.project.id) },
    records: readable,
  };
}

/** An issue by its iid within the project (the pages' and web_url's number). */
export async function findIssueByIid(
  deps: Deps,
  projectId: number,
  iid: number,
): Promise<IssueRow | undefined> {
  return (await findIssuesByIids(deps.db.kysely, projectId, [iid]))[0];
}

export function findIssueOfProject(deps: Deps, projectId: number, id: number): Promise<IssueRow | undefined> {
  return findProjectIssue(deps.db.kysely, projectId, id);
}

/**
 * v4's `scope` of a list beyond one project: the caller's own issues (created_by_me), those assigned to
 * the caller (assigned_to_me), or every issue of the projects the caller is a member of (all), each
 * only in projects whose issues the caller may read (see readableIssueScope).
 */
export async function viewerIssueScope(
  db: Executor,
  viewer: UserRow,
  scope: 'created_by_me' | 'assigned_to_me' | 'all',
) {
  const person =
    scope === 'created_by_me'
      ? { authorId: viewer.id }
      : scope === 'assigned_to_me'
        ? { assigneeId: viewer.id }
        : {};
  const candidates =
    scope === 'all'
      ? (await authorizedProjectIds(db, viewer.id).execute()).map((row) => row.id)
      : await issueProjectIds(db, person);
  return { person, ...(await readableIssueScope(db, viewer, await findProjectRecordsByIds(db, candidates))) };
}
