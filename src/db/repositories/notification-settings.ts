// Notification levels (notification_settings) and the batched reads that decide who hears about an issue
// or merge request: its commenters, the project's watchers, its subscriptions, and for every candidate
// the rows its level and access are computed from. A fixed number of indexed queries whatever the count.
import { sql } from 'kysely';
import { today } from '../../lib/clock.ts';
import type { NotificationSettingsTable } from '../schema.ts';
import type { AccessRow, Executor } from '../types.ts';

export type NotificationSource = { type: 'Global'; id: 0 } | { type: 'Project' | 'Namespace'; id: number };

export interface SettingRow {
  user_id: number;
  source_type: NotificationSettingsTable['source_type'];
  source_id: number;
  level: string;
  /** custom's switches as stored (JSON), or null. */
  events: string | null;
}

/** Authors of the (non-system) notes on an issue or merge request. */
export async function commenterIds(db: Executor, type: string, id: number): Promise<number[]> {
  const rows = await db
    .selectFrom('notes')
    .select('author_id')
    .distinct()
    .where('noteable_type', '=', type)
    .where('noteable_id', '=', id)
    .where('system', '=', 0)
    .execute();
  return rows.flatMap((row) => (row.author_id === null ? [] : [row.author_id]));
}

/**
 * Who may watch the project: a `watch` (or `custom`: 8.13's add_custom_notifications) setting on it or
 * its group, or such a global setting of one of its members (8.13's add_project_watchers); the caller
 * checks each one's effective level and switches.
 */
export async function watcherCandidateIds(db: Executor, projectId: number, groupId: number | null) {
  const sources = (eb: any) =>
    eb.or([
      eb.and([eb('s.source_type', '=', 'Project'), eb('s.source_id', '=', projectId)]),
      ...(groupId === null
        ? []
        : [eb.and([eb('s.source_type', '=', 'Namespace'), eb('s.source_id', '=', groupId)])]),
    ]);
  const memberSources = (eb: any) =>
    eb.or([
      eb.and([eb('m.source_type', '=', 'Project'), eb('m.source_id', '=', projectId)]),
      ...(groupId === null
        ? []
        : [eb.and([eb('m.source_type', '=', 'Namespace'), eb('m.source_id', '=', groupId)])]),
    ]);
  const rows = await db
    .selectFrom('notification_settings as s')
    .select('s.user_id')
    .where('s.level', 'in', WATCHING_LEVELS)
    .where(sources)
    .union(
      db
        .selectFrom('notification_settings as s')
        .innerJoin('members as m', 'm.user_id', 's.user_id')
        .select('s.user_id')
        .where('s.source_type', '=', 'Global')
        .where('s.source_id', '=', 0)
        .where('s.level', 'in', WATCHING_LEVELS)
        .where(memberSources),
    )
    .execute();
  return rows.map((row) => row.user_id);
}

const WATCHING_LEVELS = ['watch', 'custom'];

export function subscriptionsOf(db: Executor, type: string, id: number) {
  return db
    .selectFrom('subscriptions')
    .select(['user_id', 'subscribed'])
    .where('subscribable_type', '=', type)
    .where('subscribable_id', '=', id)
    .execute();
}

export async function userIdsByUsernames(db: Executor, usernames: string[]): Promise<number[]> {
  if (usernames.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where(
      sql<string>`lower(username)`,
      'in',
      usernames.map((name) => name.toLowerCase()),
    )
    .execute();
  return rows.map((row) => row.id);
}

/** The settings of these users for everything, the project and its group (one query). */
export function settingsFor(
  db: Executor,
  userIds: number[],
  projectId: number | null,
  groupId: number | null,
): Promise<SettingRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('notification_settings')
    .select(['user_id', 'source_type', 'source_id', 'level', 'events'])
    .where('user_id', 'in', userIds)
    .where((eb) =>
      eb.or([
        eb('source_type', '=', 'Global'),
        ...(projectId === null
          ? []
          : [eb.and([eb('source_type', '=', 'Project'), eb('source_id', '=', projectId)])]),
        ...(groupId === null
          ? []
          : [eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', '=', groupId)])]),
      ]),
    )
    .execute() as Promise<SettingRow[]>;
}

/** members.ts's access rows, for many users of one project at once (user_id added). */
export async function accessRowsOfUsers(
  db: Executor,
  userIds: number[],
  projectId: number,
  groupId: number | null,
): Promise<Array<AccessRow & { user_id: number }>> {
  if (userIds.length === 0) return [];
  const day = today();
  const unexpired = sql<boolean>`(m.expires_at is null or m.expires_at > ${day})`;
  const direct = (kind: 'Project' | 'Namespace', id: number) =>
    db
      .selectFrom('members as m')
      .select([
        'm.user_id',
        sql<AccessRow['kind']>`${sql.lit(kind)}`.as('kind'),
        'm.source_id',
        'm.access_level',
        'm.notification_level',
      ])
      .where('m.source_type', '=', kind)
      .where('m.source_id', '=', id)
      .where('m.user_id', 'in', userIds)
      .where(unexpired);
  let query = direct('Project', projectId).unionAll(
    db
      .selectFrom('project_group_links as l')
      .innerJoin('members as m', (join) =>
        join.onRef('m.source_id', '=', 'l.group_id').on('m.source_type', '=', 'Namespace'),
      )
      .select([
        'm.user_id',
        sql<AccessRow['kind']>`'Share'`.as('kind'),
        'l.project_id as source_id',
        sql<number>`case when m.access_level < l.group_access then m.access_level else l.group_access end`.as(
          'access_level',
        ),
        'm.notification_level',
      ])
      .where('l.project_id', '=', projectId)
      .where('m.user_id', 'in', userIds)
      .where(sql<boolean>`(l.expires_at is null or l.expires_at > ${day})`)
      .where(unexpired),
  );
  if (groupId !== null) query = query.unionAll(direct('Namespace', groupId));
  return (await query.execute()) as Array<AccessRow & { user_id: number }>;
}

/** Sets the level of one source (and custom's switches as JSON, null for other levels). */
export async function setNotificationLevel(
  db: Executor,
  userId: number,
  source: NotificationSource,
  level: string,
  events: string | null,
  at: string,
): Promise<void> {
  await db
    .insertInto('notification_settings')
    .values({
      user_id: userId,
      source_type: source.type,
      source_id: source.id,
      level,
      events,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'source_type', 'source_id']).doUpdateSet({ level, events, updated_at: at }),
    )
    .execute();
}

export async function notificationSetting(
  db: Executor,
  userId: number,
  source: NotificationSource,
): Promise<{ level: string; events: string | null } | undefined> {
  return db
    .selectFrom('notification_settings')
    .select(['level', 'events'])
    .where('user_id', '=', userId)
    .where('source_type', '=', source.type)
    .where('source_id', '=', source.id)
    .executeTakeFirst();
}

/** A user's settings of groups and projects (the profile page lists them), oldest first. */
export function sourceSettingsOfUser(db: Executor, userId: number) {
  return db
    .selectFrom('notification_settings')
    .select(['source_type', 'source_id', 'level'])
    .where('user_id', '=', userId)
    .where('source_type', '!=', 'Global')
    .orderBy('id')
    .execute();
}
