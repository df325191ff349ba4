// What the issue, label and milestone pages show, read through the API's own views: a list page is its
// three tab counts (each bounded as X-Total is), one page of issues presented as GET /issues presents
// them, and the filter choices; an issue page is the presented issue and its notes.
import type { Deps } from '../deps.ts';
import { findProjectLabelsByIds, listProjectLabels } from '../db/repositories/labels.ts';
import {
  countMilestones,
  findProjectMilestonesByIids,
  listMilestones,
} from '../db/repositories/milestones.ts';
import { listMembers } from '../db/repositories/members.ts';
import { countNotes, listNotes } from '../db/repositories/notes.ts';
import { presentIssue, presentMilestone } from '../presenters/api-v3/issue.ts';
import { presentUserBasic } from '../presenters/api-v3/user.ts';
import { countIssueList, issueListPage, type IssueListFilter } from './issue-views.ts';
import { NOTES_SHOWN_ON_PAGE, presentNotes } from './note-views.ts';
import { TAB_COUNT_CAP, tabCounts } from './tab-counts.ts';
import type { MilestoneRow, NoteRow, ProjectRecord, UserRow } from '../db/types.ts';

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

/** The references system notes store: labels by id (`Added ~12 label`), milestones by iid (`%3`). */
const LABEL_REFERENCE = /~(\d+)\b/g;
const MILESTONE_REFERENCE = /%(\d+)\b/g;
const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#+\-.!<>~%|"]/g;

/** `~bug` or `~"two words"` (`%` for a milestone): a name as a reader writes it, safe in Markdown. */
function nameReference(sigil: '~' | '%', title: string): string {
  const escaped = title.replace(MARKDOWN_SPECIAL, '\\$&');
  return /^\w+$/.test(title) ? `\\${sigil}${escaped}` : `\\${sigil}"${escaped}"`;
}

function referencedNumbers(notes: NoteRow[], pattern: RegExp): number[] {
  const numbers = notes.flatMap((note) =>
    note.system ? [...note.note.matchAll(pattern)].map((match) => Number(match[1])) : [],
  );
  return [...new Set(numbers)];
}

/**
 * An issue's (or merge request's) notes for its page, oldest first, with how many there are in all.
 * System notes name labels and milestones by number, as 8.13 stored them and the API returns them; the
 * page shows their names, as 8.13's reference filters did (a statement each, only when referenced).
 */
export async function noteThread(deps: Deps, noteableType: string, noteableId: number) {
  const db = deps.db.kysely;
  const [total, notes] = await Promise.all([
    countNotes(db, noteableType, noteableId),
    listNotes(db, noteableType, noteableId, NOTES_SHOWN_ON_PAGE, 0),
  ]);
  const projectId = notes[0]?.project_id ?? 0;
  const [labels, milestones] = await Promise.all([
    findProjectLabelsByIds(db, projectId, referencedNumbers(notes, LABEL_REFERENCE)),
    findProjectMilestonesByIids(db, projectId, referencedNumbers(notes, MILESTONE_REFERENCE)),
  ]);
  const labelTitles = new Map(labels.map((label) => [label.id, label.title]));
  const milestoneTitles = new Map(milestones.map((milestone) => [milestone.iid, milestone.title]));
  const named = (sigil: '~' | '%', titles: Map<number, string>) => (reference: string, number: string) => {
    const title = titles.get(Number(number));
    return title === undefined ? reference : nameReference(sigil, title);
  };
  const presented = await presentNotes(deps, notes);
  return {
    total,
    notes: presented.map((note) =>
      note.system
        ? {
            ...note,
            body: note.body
              .replace(LABEL_REFERENCE, named('~', labelTitles))
              .replace(MILESTONE_REFERENCE, named('%', milestoneTitles)),
          }
        : note,
    ),
  };
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
