// Reading and changing a user's notification setting (GitLab 8.13's NotificationSetting): globally, for a
// group or for a project. No stored row reads as `global` (globally: `participating`). The `custom`
// level keeps its switches (CUSTOM_EVENTS); a change that names some of them leaves the others as they were.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import {
  notificationSetting,
  setNotificationLevel,
  type NotificationSource,
} from '../../db/repositories/notification-settings.ts';
import { CUSTOM_EVENTS, NOTIFICATION_LEVELS, switchesOn, type NotificationLevel } from './recipients.ts';
import type { UserRow } from '../../db/types.ts';

export type { NotificationSource };

export interface NotificationChoice {
  level: NotificationLevel;
  /** Every switch of the custom level, on or off (kept while another level is chosen). */
  events: Record<(typeof CUSTOM_EVENTS)[number], boolean>;
}

export function isNotificationLevel(value: unknown): value is NotificationLevel {
  return typeof value === 'string' && (NOTIFICATION_LEVELS as readonly string[]).includes(value);
}

function choiceOf(level: NotificationLevel, events: string | null): NotificationChoice {
  const on = switchesOn(events);
  return {
    level,
    events: Object.fromEntries(
      CUSTOM_EVENTS.map((event) => [event, on.has(event)]),
    ) as NotificationChoice['events'],
  };
}

export async function readNotificationSetting(
  deps: Deps,
  user: UserRow,
  source: NotificationSource,
): Promise<NotificationChoice> {
  const row = await notificationSetting(deps.db.kysely, user.id, source);
  const fallback = source.type === 'Global' ? 'participating' : 'global';
  return choiceOf((row?.level as NotificationLevel | undefined) ?? fallback, row?.events ?? null);
}

/**
 * Global has no `global` of its own to defer to; the caller checks `isNotificationLevel` first. `switches`
 * sets custom's events it names (true or false).
 */
export async function changeNotificationSetting(
  deps: Deps,
  user: UserRow,
  source: NotificationSource,
  level: NotificationLevel,
  switches: Partial<Record<(typeof CUSTOM_EVENTS)[number], boolean>> = {},
): Promise<NotificationChoice> {
  const stored = source.type === 'Global' && level === 'global' ? 'participating' : level;
  const current = await readNotificationSetting(deps, user, source);
  const events = { ...current.events, ...switches };
  const anyOn = Object.values(events).some(Boolean);
  await setNotificationLevel(
    deps.db.kysely,
    user.id,
    source,
    stored,
    anyOn ? JSON.stringify(events) : null,
    now(),
  );
  return { level: stored, events };
}
