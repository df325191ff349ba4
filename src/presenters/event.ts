// The Event entity (reference/api-v3.md §6.5, README row 42): created_at always; author when the author
// still exists; action_name from GitLab's Event#action_name.
import type { EventRow } from '../db/repositories/events.ts';
import type { UserRow } from '../db/repositories/users.ts';
import { presentUserBasic } from './user.ts';

const ZEROS = /^0{40}$/;

export function actionName(event: EventRow, data: Record<string, unknown> | null, imported: boolean): string {
  switch (event.action) {
    case 5:
      if (typeof data?.before === 'string' && ZEROS.test(data.before)) return 'pushed new';
      if (typeof data?.after === 'string' && ZEROS.test(data.after)) return 'deleted';
      return 'pushed to';
    case 3:
      return 'closed';
    case 7:
      return 'accepted';
    case 8:
      return 'joined';
    case 9:
      return 'left';
    case 10:
      return 'destroyed';
    case 6:
      return 'commented on';
    case 1:
      if (event.target_type === null) return imported ? 'imported' : 'created';
      return 'opened';
    default:
      return 'opened';
  }
}

export interface EventExtras {
  author: UserRow | null;
  /** The project was created by an import (a project-created event then reads "imported"). */
  imported: boolean;
}

export function presentEvent(event: EventRow, extras: EventExtras, baseUrl: string) {
  const data = event.data === null ? null : (JSON.parse(event.data) as Record<string, unknown>);
  return {
    title: event.title,
    project_id: event.project_id,
    action_name: actionName(event, data, extras.imported),
    target_id: event.target_id,
    target_type: event.target_type,
    author_id: event.author_id,
    data,
    target_title: null as string | null,
    created_at: event.created_at,
    ...(extras.author ? { author: presentUserBasic(extras.author, baseUrl) } : {}),
    author_username: extras.author?.username ?? null,
  };
}
