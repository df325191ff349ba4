// Activity pages, newest first: a page of events, then their authors and the import flag of their
// projects in one query each. The API shows every event of a project it may read (8.13's API did); pages
// for people hide events about issues and merge requests the viewer may not read (8.13's
// Event#visible_to_user?, which its pages applied), so a confidential issue's title stays with who may
// read it.
import type { Deps } from '../deps.ts';
import {
  countProjectEvents,
  countUserEvents,
  listProjectEvents,
  listUserEvents,
  type EventFilter,
  type EventVisibility,
} from '../db/repositories/events.ts';
import { findBasicUsersByIds } from '../db/repositories/users.ts';
import { issuesByIds } from '../db/repositories/issues.ts';
import { milestonesByIds } from '../db/repositories/milestones.ts';
import { notesByIds } from '../db/repositories/notes.ts';
import { mergeRequestsByIds } from '../db/repositories/merge-requests.ts';
import { findProjectRecordsByIds } from '../db/repositories/projects.ts';
import { projectAccessMany } from '../policies/access.ts';
import { canReadIssue } from '../policies/issues.ts';
import { canReadMergeRequests } from '../policies/merge-requests.ts';
import { presentNotes } from './note-views.ts';
import { importedProjectIds } from '../db/repositories/projects.ts';
import { presentEvent } from '../presenters/api-v3/event.ts';
import { EventAction } from '../domain/types.ts';
import { minimumVisibilityWithoutMembership, canSeeEverything } from '../policies/visibility.ts';
import type { EventRow, IssueRow, UserBasicRow, UserRow } from '../db/types.ts';

interface PageWindow {
  offset: number;
  limit: number;
}

/**
 * The events as the Event entity. Given a viewer (`null` for a visitor), only those 8.13's pages showed
 * them: an event about an issue (or a comment on one) needs read access to that issue, one about a merge
 * request (or a comment on one) read access to merge requests; pushes, memberships, creations, milestones
 * and commit comments show to whoever sees the project.
 */
export async function presentEventPage(deps: Deps, events: EventRow[], viewer?: UserRow | null) {
  return (await eventViews(deps, events, viewer)).map((view) =>
    presentEvent(view.event, view, deps.config.externalUrl),
  );
}

/** An event and what its entities show: author, import flag, target title and iid, a comment's note. */
export interface EventView {
  event: EventRow;
  author: UserBasicRow | null;
  imported: boolean;
  targetTitle: string | null | undefined;
  targetIid: number | null;
  note: object | undefined;
}

/** The events as view models, filtered for `viewer` as presentEventPage says; a fixed number of queries. */
async function eventViews(deps: Deps, events: EventRow[], viewer?: UserRow | null): Promise<EventView[]> {
  if (events.length === 0) return [];
  const db = deps.db.kysely;
  const created = events.filter(
    (e) => e.action === EventAction.Created && e.target_type === null && e.project_id !== null,
  );
  const [authors, imported, targets] = await Promise.all([
    findBasicUsersByIds(
      db,
      events.map((e) => e.author_id),
    ),
    importedProjectIds(
      db,
      created.map((e) => e.project_id!),
    ),
    eventTargets(deps, events),
  ]);
  const shown = viewer === undefined ? events : await visibleEvents(deps, viewer, events, targets);
  return shown.map((event) => {
    const key = `${event.target_type}:${event.target_id}`;
    return {
      event,
      author: authors.get(event.author_id) ?? null,
      imported: event.project_id !== null && imported.has(event.project_id),
      targetTitle: event.target_id === null ? null : targets.titles.get(key),
      targetIid: event.target_id === null ? null : (targets.iids.get(key) ?? null),
      note:
        event.target_type === 'Note' && event.target_id !== null
          ? targets.notes.get(event.target_id)
          : undefined,
    };
  });
}

type EventTargets = Awaited<ReturnType<typeof eventTargets>>;

/** What an event is about for its visibility: an issue (null when gone), merge requests, or nothing to check. */
function eventSubject(
  event: EventRow,
  targets: EventTargets,
): { issue: IssueRow | null } | 'merge request' | null {
  let type = event.target_type;
  let id = event.target_id;
  if (type === 'Note' && id !== null) {
    const note = targets.noteRows.get(id);
    type = note?.noteable_type ?? null;
    id = note?.noteable_id ?? null;
  }
  if (type === 'Issue') return { issue: id === null ? null : (targets.issues.get(id) ?? null) };
  return type === 'MergeRequest' ? 'merge request' : null;
}

async function visibleEvents(
  deps: Deps,
  viewer: UserRow | null,
  events: EventRow[],
  targets: EventTargets,
): Promise<EventRow[]> {
  const checked = events.filter((event) => eventSubject(event, targets) !== null);
  if (checked.length === 0) return events;
  const db = deps.db.kysely;
  const records = await findProjectRecordsByIds(db, [
    ...new Set(checked.flatMap((event) => (event.project_id === null ? [] : [event.project_id]))),
  ]);
  const access = await projectAccessMany(db, viewer, records);
  const recordsById = new Map(records.map((record) => [record.project.id, record]));
  return events.filter((event) => {
    const subject = eventSubject(event, targets);
    if (subject === null) return true;
    const record = event.project_id === null ? undefined : recordsById.get(event.project_id);
    const projectAccess = record && access.get(record.project.id);
    if (!record || !projectAccess) return false;
    if (subject === 'merge request') return canReadMergeRequests(projectAccess, record);
    return subject.issue !== null && canReadIssue(viewer, projectAccess, record, subject.issue);
  });
}

/**
 * The events' issues, merge requests, milestones and notes: their titles (a note's is what it comments
 * on, as 8.13's Note delegated `title` to its noteable), the notes' entities and the rows visibility needs.
 */
async function eventTargets(deps: Deps, events: EventRow[]) {
  const db = deps.db.kysely;
  const ids = (type: string) =>
    events.flatMap((e) => (e.target_type === type && e.target_id !== null ? [e.target_id] : []));
  const [noteRows, milestones] = await Promise.all([
    notesByIds(db, ids('Note')),
    milestonesByIds(db, ids('Milestone')),
  ]);
  const noteables = (type: string) =>
    [...noteRows.values()].flatMap((n) =>
      n.noteable_type === type && n.noteable_id !== null ? [n.noteable_id] : [],
    );
  const [issues, mergeRequests] = await Promise.all([
    issuesByIds(db, [...ids('Issue'), ...noteables('Issue')]),
    mergeRequestsByIds(db, [...ids('MergeRequest'), ...noteables('MergeRequest')]),
  ]);
  const titles = new Map<string, string>();
  const iids = new Map<string, number>();
  for (const issue of issues.values()) titles.set(`Issue:${issue.id}`, issue.title);
  for (const mr of mergeRequests.values()) titles.set(`MergeRequest:${mr.id}`, mr.title);
  for (const milestone of milestones.values()) titles.set(`Milestone:${milestone.id}`, milestone.title);
  for (const issue of issues.values()) iids.set(`Issue:${issue.id}`, issue.iid);
  for (const mr of mergeRequests.values()) iids.set(`MergeRequest:${mr.id}`, mr.iid);
  for (const milestone of milestones.values()) iids.set(`Milestone:${milestone.id}`, milestone.iid);
  for (const note of noteRows.values()) {
    const title =
      note.noteable_id === null ? undefined : titles.get(`${note.noteable_type}:${note.noteable_id}`);
    if (title !== undefined) titles.set(`Note:${note.id}`, title);
  }
  const presented = await presentNotes(deps, [...noteRows.values()]);
  return {
    titles,
    iids,
    notes: new Map(presented.map((note) => [note.id, note as object])),
    noteRows,
    issues,
  };
}

export function countProjectEventList(deps: Deps, projectId: number, filter?: EventFilter): Promise<number> {
  return countProjectEvents(deps.db.kysely, projectId, filter);
}

export async function listProjectEventsPage(
  deps: Deps,
  projectId: number,
  page: PageWindow,
  filter?: EventFilter,
) {
  return eventViews(
    deps,
    await listProjectEvents(deps.db.kysely, projectId, page.limit, page.offset, filter),
  );
}

/**
 * A page of the project's activity as the viewer may see it, and whether an older page exists (one more
 * event than the page is read, so nothing is counted; the page may show fewer when some are hidden).
 */
export async function projectActivityPage(
  deps: Deps,
  viewer: UserRow | null,
  projectId: number,
  page: PageWindow,
) {
  const events = await listProjectEvents(deps.db.kysely, projectId, page.limit + 1, page.offset);
  return {
    events: await presentEventPage(deps, events.slice(0, page.limit), viewer),
    hasNext: events.length > page.limit,
  };
}

/** A user's events come only from projects the viewer can see. */
function visibilityFor(viewer: UserRow): EventVisibility {
  return {
    viewerId: viewer.id,
    seesAll: canSeeEverything(viewer),
    minimumVisibility: minimumVisibilityWithoutMembership(viewer),
  };
}

export function countUserEventList(
  deps: Deps,
  viewer: UserRow,
  authorId: number,
  filter?: EventFilter,
): Promise<number> {
  return countUserEvents(deps.db.kysely, authorId, visibilityFor(viewer), filter);
}

export async function listUserEventsPage(
  deps: Deps,
  viewer: UserRow,
  authorId: number,
  page: PageWindow,
  filter?: EventFilter,
) {
  const events = await listUserEvents(
    deps.db.kysely,
    authorId,
    visibilityFor(viewer),
    page.limit,
    page.offset,
    filter,
  );
  return eventViews(deps, events);
}
