// What the issue, label and milestone pages show, read through the API's own views: a list page is its
// three tab counts (each bounded as X-Total is), one page of issues presented as GET /issues presents
// them, and the filter choices; an issue page is the presented issue and its notes.
import type { Deps } from '../deps.ts';
import { listProjectLabels } from '../db/repositories/labels.ts';
import { countMilestones, listMilestones } from '../db/repositories/milestones.ts';
import { resolveReferences, type ReferenceMap } from './reference-views.ts';
import { markdownReferences, referenceKey } from '../lib/gfm-references.ts';
import { CROSS_REFERENCE_PREFIX } from '../domain/cross-references.ts';
import type { ProjectAccess } from '../policies/access.ts';
import { listMembers } from '../db/repositories/members.ts';
import { countNotesAndComments, listNotes } from '../db/repositories/notes.ts';
import { presentIssue, presentMilestone } from '../presenters/api-v3/issue.ts';
import { presentUserBasic } from '../presenters/api-v3/user.ts';
import { countIssueList, issueListPage, type IssueListFilter } from './issue-views.ts';
import { NOTES_SHOWN_ON_PAGE, presentNotes } from './note-views.ts';
import { TAB_COUNT_CAP, tabCounts } from './tab-counts.ts';
import type { MilestoneRow, ProjectRecord, UserRow } from '../db/types.ts';

/** Choices offered in the assignee, milestone and label selects. */
const CHOICES = 200;

export const ISSUE_TABS = ['opened', 'closed', 'all'] as const;
export type IssueTabState = (typeof ISSUE_TABS)[number];

/** One state tab of an issue list over `records` (the projects its issues are in), a page of it. */
export async function issueListView(
  deps: Deps,
  viewer: UserRow | null,
  records: ProjectRecord[],
  filter: Omit<IssueListFilter, 'state'>,
  state: IssueTabState,
  page: { limit: number; offset: number },
) {
  const count = (tab: IssueTabState) =>
    countIssueList(deps, { ...filter, state: tab === 'all' ? undefined : tab }, TAB_COUNT_CAP);
  // One more row than the page tells whether there is a next page.
  const [counts, rows] = await Promise.all([
    tabCounts(ISSUE_TABS, count),
    issueListPage(
      deps,
      viewer,
      { ...filter, state: state === 'all' ? undefined : state },
      { limit: page.limit + 1, offset: page.offset },
      records,
    ),
  ]);
  // The pages are drawn from the API's Issue entity (presenters/html takes its shape).
  const issues = rows.slice(0, page.limit).map((view) => presentIssue(view, deps.config.externalUrl));
  return { counts, issues, hasNext: rows.length > page.limit };
}

/** Labels, active milestones and project members, for the filters and the issue form. */
export async function issueChoices(deps: Deps, record: ProjectRecord) {
  const db = deps.db.kysely;
  const inGroup = record.namespace.type === 'Group';
  const [labels, milestones, members, groupMembers] = await Promise.all([
    listProjectLabels(db, record.project.id),
    listMilestones(db, { projectId: record.project.id, state: 'active' }, CHOICES, 0),
    listMembers(db, 'Project', record.project.id, { offset: 0, limit: CHOICES }),
    // A group's members work on its projects without a row of their own, as in 8.13's assignee list.
    inGroup ? listMembers(db, 'Namespace', record.namespace.id, { offset: 0, limit: CHOICES }) : [],
  ]);
  const users = new Map([...members, ...groupMembers].map(({ user }) => [user.id, user]));
  return {
    labels: labels.map((label) => ({ id: label.id, title: label.title, color: label.color })),
    milestones: milestones.map(presentMilestone),
    users: [...users.values()].map((user) => presentUserBasic(user, deps.config.externalUrl)),
  };
}

export type IssueChoices = Awaited<ReturnType<typeof issueChoices>>;

/**
 * An issue's (or merge request's) notes for its page, oldest first, with how many there are in all and
 * how many of them are comments (the heading counts comments, not system notes).
 * System notes name labels and milestones by number (`Added ~12 label`, `%3`), as 8.13 stored them and
 * the API returns them; the page's reference rendering shows them by name (pageReferences).
 */
export async function noteThread(deps: Deps, noteableType: string, noteableId: number) {
  const db = deps.db.kysely;
  const [counts, notes] = await Promise.all([
    countNotesAndComments(db, noteableType, noteableId),
    listNotes(db, noteableType, noteableId, NOTES_SHOWN_ON_PAGE, 0),
  ]);
  return { counts, notes: await presentNotes(deps, notes) };
}

/**
 * The references of a page's texts (a description, its notes) resolved for the viewer in one batch, and
 * the notes the viewer may see: a cross-reference note (`Mentioned in issue #2`) whose mentioner the
 * viewer may not see is left out, as 8.13's notes list left it out.
 */
export async function pageReferences<Note extends { system: boolean; body: string }>(
  deps: Deps,
  viewer: UserRow | null,
  record: ProjectRecord,
  access: ProjectAccess,
  description: string | null,
  notes: Note[],
): Promise<{ references: ReferenceMap['resolved']; notes: Note[] }> {
  const map = await resolveReferences(
    { db: deps.db.kysely, dataDir: deps.config.dataDir, viewer, record, access },
    [description, ...notes.map((note) => note.body)],
  );
  const visible = notes.filter(
    (note) =>
      !(note.system && note.body.startsWith(CROSS_REFERENCE_PREFIX)) ||
      markdownReferences(note.body).some((reference) => map.resolved.has(referenceKey(reference))),
  );
  return { references: map.resolved, notes: visible };
}

export type MilestoneTabState = 'opened' | 'closed' | 'all';

/** The milestones page: its three tab counts and one page, newest first (GitLab's `active` is "open"). */
export async function milestoneListView(
  deps: Deps,
  record: ProjectRecord,
  state: MilestoneTabState,
  page: { limit: number; offset: number },
) {
  const db = deps.db.kysely;
  const filter = (tab: MilestoneTabState) => ({
    projectId: record.project.id,
    state: tab === 'opened' ? ('active' as const) : tab === 'closed' ? ('closed' as const) : undefined,
  });
  const [opened, closed, all, rows] = await Promise.all([
    countMilestones(db, filter('opened')),
    countMilestones(db, filter('closed')),
    countMilestones(db, filter('all')),
    listMilestones(db, filter(state), page.limit + 1, page.offset),
  ]);
  return {
    counts: { opened, closed, all },
    milestones: rows.slice(0, page.limit).map(presentMilestone),
    hasNext: rows.length > page.limit,
  };
}

/** A milestone by its iid within the project (8.13's milestone paths name the iid). */
export async function findMilestoneByIid(
  deps: Deps,
  record: ProjectRecord,
  iid: number,
): Promise<MilestoneRow | undefined> {
  return (await listMilestones(deps.db.kysely, { projectId: record.project.id, iid }, 1, 0))[0];
}
