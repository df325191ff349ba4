// Activity pages, newest first: a page of events, then their authors and the import flag of their
// projects in one query each.
import type { Deps } from '../deps.ts';
import {
  countProjectEvents,
  countUserEvents,
  listProjectEvents,
  listUserEvents,
  type EventVisibility,
} from '../db/repositories/events.ts';
import { findBasicUsersByIds } from '../db/repositories/users.ts';
import { issuesByIds } from '../db/repositories/issues.ts';
import { milestonesByIds } from '../db/repositories/milestones.ts';
import { notesByIds } from '../db/repositories/notes.ts';
import { presentNotes } from './note-views.ts';
import { importedProjectIds } from '../db/repositories/projects.ts';
import { presentEvent } from '../presenters/event.ts';
import { EventAction } from '../domain/types.ts';
import { minimumVisibilityWithoutMembership, canSeeEverything } from '../policies/visibility.ts';
import type { EventRow, UserRow } from '../db/types.ts';

interface PageWindow {
  offset: number;
  limit: number;
}

export async function presentEventPage(deps: Deps, events: EventRow[]) {
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
  return events.map((event) =>
    presentEvent(
      event,
      {
        author: authors.get(event.author_id) ?? null,
        imported: event.project_id !== null && imported.has(event.project_id),
        targetTitle:
          event.target_id === null ? null : targets.titles.get(`${event.target_type}:${event.target_id}`),
        note:
          event.target_type === 'Note' && event.target_id !== null
            ? targets.notes.get(event.target_id)
            : undefined,
      },
      deps.config.externalUrl,
    ),
  );
}

/** Titles of the events' issues, milestones and notes (a note's is its issue's), and the notes' entities. */
async function eventTargets(deps: Deps, events: EventRow[]) {
  const db = deps.db.kysely;
  const ids = (type: string) =>
    events.flatMap((e) => (e.target_type === type && e.target_id !== null ? [e.target_id] : []));
  const [notes, milestones] = await Promise.all([
    notesByIds(db, ids('Note')),
    milestonesByIds(db, ids('Milestone')),
  ]);
  const issues = await issuesByIds(db, [
    ...ids('Issue'),
    ...[...notes.values()].flatMap((n) =>
      n.noteable_type === 'Issue' && n.noteable_id !== null ? [n.noteable_id] : [],
    ),
  ]);
  const titles = new Map<string, string>();
  for (const issue of issues.values()) titles.set(`Issue:${issue.id}`, issue.title);
  for (const milestone of milestones.values()) titles.set(`Milestone:${milestone.id}`, milestone.title);
  for (const note of notes.values()) {
    const issue =
      note.noteable_type !== 'Issue' || note.noteable_id === null ? undefined : issues.get(note.noteable_id);
    if (issue) titles.set(`Note:${note.id}`, issue.title);
  }
  const presented = await presentNotes(deps, [...notes.values()]);
  return { titles, notes: new Map(presented.map((note) => [note.id, note as object])) };
}

export function countProjectEventList(deps: Deps, projectId: number): Promise<number> {
  return countProjectEvents(deps.db.kysely, projectId);
}

export async function listProjectEventsPage(deps: Deps, projectId: number, page: PageWindow) {
  return presentEventPage(deps, await listProjectEvents(deps.db.kysely, projectId, page.limit, page.offset));
}

/** A user's events come only from projects the viewer can see. */
function visibilityFor(viewer: UserRow): EventVisibility {
  return {
    viewerId: viewer.id,
    seesAll: canSeeEverything(viewer),
    minimumVisibility: minimumVisibilityWithoutMembership(viewer),
  };
}

export function countUserEventList(deps: Deps, viewer: UserRow, authorId: number): Promise<number> {
  return countUserEvents(deps.db.kysely, authorId, visibilityFor(viewer));
}

export async function listUserEventsPage(deps: Deps, viewer: UserRow, authorId: number, page: PageWindow) {
  const events = await listUserEvents(
    deps.db.kysely,
    authorId,
    visibilityFor(viewer),
    page.limit,
    page.offset,
  );
  return presentEventPage(deps, events);
}
