// Who hears about an issue or merge request event, by GitLab 8.13's NotificationService#build_recipients:
// the participants (author, assignee, commenters, mentioned users) and the project's watchers, less those
// whose level is `mention` (unless this text mentions them) or `disabled`, plus explicit subscribers, less
// those who unsubscribed, blocked users, anyone who may not read the issue, and the actor; a `custom` user
// is also told of each event whose switch is on. Levels resolve
// project → group → global (no row, or `global`, defers to the next; globally `participating`).
// A fixed number of indexed queries, whatever the number of watchers.
import {
  accessRowsOfUsers,
  commenterIds,
  settingsFor,
  subscriptionsOf,
  userIdsByUsernames,
  watcherCandidateIds,
  type SettingRow,
} from '../../db/repositories/notification-settings.ts';
import { usersByIds } from '../../db/repositories/users.ts';
import { projectAccessFromRows, type ProjectAccess } from '../../policies/access.ts';
import type { Executor, ProjectRecord, UserRow } from '../../db/types.ts';

export const NOTIFICATION_LEVELS = [
  'disabled',
  'participating',
  'watch',
  'global',
  'mention',
  'custom',
] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

/**
 * The `custom` level's switches: GitLab 8.13's EMAIL_EVENTS and today's pipeline pair. A custom user
 * hears what a participating one does, and besides, as a watcher, each event whose switch is on.
 */
export const CUSTOM_EVENTS = [
  'new_note',
  'new_issue',
  'reopen_issue',
  'close_issue',
  'reassign_issue',
  'new_merge_request',
  'reopen_merge_request',
  'close_merge_request',
  'reassign_merge_request',
  'merge_merge_request',
  'failed_pipeline',
  'success_pipeline',
] as const;
export type CustomEvent = (typeof CUSTOM_EVENTS)[number];

export interface EffectiveSetting {
  level: NotificationLevel;
  /** The switches that are on (custom only; empty for every other level). */
  events: Set<string>;
}

/** custom's stored switches (JSON), the ones that are on. */
export function switchesOn(events: string | null): Set<string> {
  if (!events) return new Set();
  const parsed = JSON.parse(events) as Record<string, boolean>;
  return new Set(CUSTOM_EVENTS.filter((event) => parsed[event] === true));
}

/** The setting that applies to a user in a project (or, without one, globally). */
export function effectiveSetting(
  settings: SettingRow[],
  userId: number,
  projectId: number | null,
  groupId: number | null,
): EffectiveSetting {
  const own = settings.filter((row) => row.user_id === userId);
  const pick = (type: string, id: number | null) =>
    id === null ? undefined : own.find((row) => row.source_type === type && row.source_id === id);
  const chosen = [pick('Project', projectId), pick('Namespace', groupId), pick('Global', 0)].find(
    (row) => row !== undefined && row.level !== 'global',
  );
  if (!chosen) return { level: 'participating', events: new Set() };
  const level = chosen.level as NotificationLevel;
  return { level, events: level === 'custom' ? switchesOn(chosen.events) : new Set() };
}

/** `@username` references in a text (8.13's user reference pattern), lower-cased. */
function mentionedUsernames(text: string | null | undefined): string[] {
  if (!text) return [];
  const names = new Set<string>();
  for (const match of text.matchAll(/(?:^|[^\w`/])@([A-Za-z0-9_][A-Za-z0-9_.-]*[A-Za-z0-9_-]|[A-Za-z0-9_])/g))
    names.add(match[1]!.toLowerCase());
  return [...names];
}

export interface RecipientQuery {
  record: ProjectRecord;
  target: { type: 'Issue' | 'MergeRequest'; id: number; authorId: number | null; assigneeId: number | null };
  actor: UserRow;
  /** The event as custom's switches name it (new_issue, close_merge_request, new_note …). */
  action: CustomEvent;
  /** Texts of this event whose mentions count (the description, the note). */
  texts: Array<string | null>;
  /** Also told whatever their level but disabled (reassignment: old and new assignee). */
  extra?: number[];
  /** May this user read the target (confidential issues, the feature switch)? */
  canRead(user: UserRow, access: ProjectAccess): boolean;
}

export interface Recipient {
  user: UserRow;
  mentioned: boolean;
}

export async function findRecipients(db: Executor, query: RecipientQuery): Promise<Recipient[]> {
  const { record, target } = query;
  const projectId = record.project.id;
  const groupId = record.namespace.type === 'Group' ? record.namespace.id : null;
  const usernames = query.texts.flatMap(mentionedUsernames);
  const [commenters, watchers, subscriptions, mentionedIds] = await Promise.all([
    commenterIds(db, target.type, target.id),
    watcherCandidateIds(db, projectId, groupId),
    subscriptionsOf(db, target.type, target.id),
    userIdsByUsernames(db, [...new Set(usernames)]),
  ]);
  const mentioned = new Set(mentionedIds);
  const watching = new Set(watchers);
  const participants = new Set<number>([...commenters, ...mentionedIds]);
  if (target.authorId !== null) participants.add(target.authorId);
  if (target.assigneeId !== null) participants.add(target.assigneeId);
  const extra = new Set(query.extra ?? []);
  const candidates = new Set<number>([
    ...participants,
    ...watchers,
    ...extra,
    ...subscriptions.map((row) => row.user_id),
  ]);
  candidates.delete(query.actor.id);
  const ids = [...candidates];
  if (ids.length === 0) return [];
  const [users, settings, accessRows] = await Promise.all([
    usersByIds(db, ids),
    settingsFor(db, ids, projectId, groupId),
    accessRowsOfUsers(db, ids, projectId, groupId),
  ]);
  const subscribed = new Map(subscriptions.map((row) => [row.user_id, row.subscribed === 1]));
  const rowsByUser = new Map<number, typeof accessRows>();
  for (const row of accessRows) rowsByUser.set(row.user_id, [...(rowsByUser.get(row.user_id) ?? []), row]);
  const recipients: Recipient[] = [];
  for (const id of ids) {
    const user = users.get(id);
    if (!user || user.state !== 'active') continue;
    const { level, events } = effectiveSetting(settings, id, projectId, groupId);
    if (level === 'disabled') continue;
    let wanted =
      (participants.has(id) && (level !== 'mention' || mentioned.has(id))) ||
      (level === 'watch' && watching.has(id)) ||
      (level === 'custom' && events.has(query.action) && watching.has(id)) ||
      extra.has(id) ||
      subscribed.get(id) === true;
    if (subscribed.get(id) === false) wanted = false;
    if (!wanted) continue;
    const access = projectAccessFromRows(user, record, rowsByUser.get(id) ?? []);
    if (!query.canRead(user, access)) continue;
    recipients.push({ user, mentioned: mentioned.has(id) });
  }
  return recipients;
}
