// The one place activity is recorded. Call it with the transaction of the action itself (project create,
// member join/leave, push, …) so the event and the action land together.
import { insertEvent, touchProjectActivity } from '../../db/repositories/events.ts';
import { now } from '../../lib/clock.ts';
import type { EventAction } from '../../domain/types.ts';
import type { EventRow, Executor } from '../../db/types.ts';

interface NewActivity {
  projectId: number;
  authorId: number;
  action: EventAction;
  targetId?: number | null;
  targetType?: string | null;
  title?: string | null;
  /** Push payload and the like; stored as JSON. */
  data?: unknown;
  at?: string;
  /** The project was created in this transaction with last_activity_at `at`: nothing to touch. */
  projectJustCreated?: boolean;
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
  if (!activity.projectJustCreated) await touchProjectActivity(trx, activity.projectId, at);
  return row;
}
