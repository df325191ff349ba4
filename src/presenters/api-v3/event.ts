// The Event entity: created_at on every event; author when the author still exists; action_name from
// GitLab's Event#action_name.
import { presentUserBasic } from './user.ts';
import { BLANK_SHA, EventAction } from '../../domain/types.ts';
import type { EventRow, UserBasicRow } from '../../db/types.ts';

export function actionName(event: EventRow, data: Record<string, unknown> | null, imported: boolean): string {
  switch (event.action) {
    case EventAction.Pushed:
      if (typeof data?.before === 'string' && data.before === BLANK_SHA) return 'pushed new';
      if (typeof data?.after === 'string' && data.after === BLANK_SHA) return 'deleted';
      return 'pushed to';
    case EventAction.Closed:
      return 'closed';
    case EventAction.Merged:
      return 'accepted';
    case EventAction.Joined:
      return 'joined';
    case EventAction.Left:
      return 'left';
    case EventAction.Destroyed:
      return 'destroyed';
    case EventAction.Commented:
      return 'commented on';
    case EventAction.Created:
      if (event.target_type === null) return imported ? 'imported' : 'created';
      return 'opened';
    default:
      return 'opened';
  }
}

interface EventExtras {
  author: UserBasicRow | null;
  /** The target's title (an issue's, a milestone's, a note's issue's); null for pushes and projects. */
  targetTitle?: string | null;
  /** The Note entity of a `commented on` event. */
  note?: object;
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
    target_title: extras.targetTitle ?? null,
    created_at: event.created_at,
    ...(extras.note ? { note: extras.note } : {}),
    ...(extras.author ? { author: presentUserBasic(extras.author, baseUrl) } : {}),
    author_username: extras.author?.username ?? null,
  };
}
