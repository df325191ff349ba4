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
import { usersByIds } from '../db/repositories/users.ts';
import { importedProjectIds } from '../db/repositories/projects.ts';
import { presentEvent } from '../presenters/event.ts';
import { EventAction } from '../domain/types.ts';
import { minimumVisibilityWithoutMembership, canSeeEverything } from '../policies/visibility.ts';
import type { EventRow, UserRow } from '../db/types.ts';

interface PageWindow {
  offset: number;
  limit: number;
}

async function presentEventPage(deps: Deps, events: EventRow[]) {
  if (events.length === 0) return [];
  const db = deps.db.kysely;
  const created = events.filter(
    (e) => e.action === EventAction.Created && e.target_type === null && e.project_id !== null,
  );
  const [authors, imported] = await Promise.all([
    usersByIds(
      db,
      events.map((e) => e.author_id),
    ),
    importedProjectIds(
      db,
      created.map((e) => e.project_id!),
    ),
  ]);
  return events.map((event) =>
    presentEvent(
      event,
      {
        author: authors.get(event.author_id) ?? null,
        imported: event.project_id !== null && imported.has(event.project_id),
      },
      deps.config.externalUrl,
    ),
  );
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
