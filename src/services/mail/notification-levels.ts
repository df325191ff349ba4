// Reading and changing a user's notification level (GitLab 8.13's NotificationSetting): globally, for a
// group or for a project. No stored row reads as `global` (globally: `participating`).
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import {
  notificationLevel,
  setNotificationLevel,
  type NotificationSource,
} from '../../db/repositories/notification-settings.ts';
import { NOTIFICATION_LEVELS, type NotificationLevel } from './recipients.ts';
import type { UserRow } from '../../db/types.ts';

export type { NotificationSource };

export function isNotificationLevel(value: unknown): value is NotificationLevel {
  return typeof value === 'string' && (NOTIFICATION_LEVELS as readonly string[]).includes(value);
}

export async function readNotificationLevel(
  deps: Deps,
  user: UserRow,
  source: NotificationSource,
): Promise<NotificationLevel> {
  const level = await notificationLevel(deps.db.kysely, user.id, source);
  return (level as NotificationLevel | undefined) ?? (source.type === 'Global' ? 'participating' : 'global');
}

/** Global has no `global` of its own to defer to; the caller checks `isNotificationLevel` first. */
export async function changeNotificationLevel(
  deps: Deps,
  user: UserRow,
  source: NotificationSource,
  level: NotificationLevel,
): Promise<NotificationLevel> {
  const stored = source.type === 'Global' && level === 'global' ? 'participating' : level;
  await setNotificationLevel(deps.db.kysely, user.id, source, stored, now());
  return stored;
}
