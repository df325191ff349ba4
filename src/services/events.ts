// The one place activity is recorded (reference/internals.md §3). Call it with the transaction of the
// action itself (project create, member join/leave, push, …) so the event and the action land together.
import type { Executor } from '../db/repositories/users.ts';
import type { Deps } from '../deps.ts';
import {
  countProjectEvents,
  countUserEvents,
  insertEvent,
  listProjectEvents,
  listUserEvents,
  touchProjectActivity,
  type EventRow,
  type EventVisibility,
} from '../db/repositories/events.ts';
import { now } from '../db/errors.ts';

/** GitLab's Event action codes. */
export const EventAction = {
  Created: 1,
  Updated: 2,
  Closed: 3,
  Reopened: 4,
  Pushed: 5,
  Commented: 6,
  Merged: 7,
  Joined: 8,
  Left: 9,
  Destroyed: 10,
} as const;
export type EventAction = (typeof EventAction)[keyof typeof EventAction];

export interface NewActivity {
  projectId: number;
  authorId: number;
  action: EventAction;
  targetId?: number | null;
  targetType?: string | null;
  title?: string | null;
  /** Push payload and the like; stored as JSON. */
  data?: unknown;
  at?: string;
}

export async function recordEvent(trx: Executor, activity: NewActivity): Promise<EventRow> {
  const at = activity.at ?? now();
  const row = await insertEvent(trx, {
    project_id: activity.projectId,
    author_id: activity.authorId,
    action: activity.action,
    target_id: activity.targetId ?? null,
    target_type: activity.targetType ?? null,
    title: activity.title ?? null,
    data: activity.data === undefined || activity.data === null ? null : JSON.stringify(activity.data),
    created_at: at,
    updated_at: at,
  });
  await touchProjectActivity(trx, activity.projectId, at);
  return row;
}

export function countProjectEventList(deps: Deps, projectId: number): Promise<number> {
  return countProjectEvents(deps.db.kysely, projectId);
}

export function pageProjectEvents(deps: Deps, projectId: number, page: { limit: number; offset: number }) {
  return listProjectEvents(deps.db.kysely, projectId, page.limit, page.offset);
}

export function countUserEventList(
  deps: Deps,
  authorId: number,
  visibility: EventVisibility,
): Promise<number> {
  return countUserEvents(deps.db.kysely, authorId, visibility);
}

export function pageUserEvents(
  deps: Deps,
  authorId: number,
  visibility: EventVisibility,
  page: { limit: number; offset: number },
) {
  return listUserEvents(deps.db.kysely, authorId, visibility, page.limit, page.offset);
}
