// Memberships of projects (source_type 'Project') and groups ('Namespace'), and the access rows the
// project policy reads: the caller's project membership, group membership and group shares, for one
// project or a page of them, in one indexed query.
import { sql, type Selectable } from 'kysely';
import type { MembersTable } from '../schema.ts';
import { now } from '../errors.ts';
import type { Executor } from './users.ts';

export type MemberRow = Selectable<MembersTable>;
export type SourceType = 'Project' | 'Namespace';

/** Today as YYYY-MM-DD (UTC): a membership or share with expires_at <= today has expired. */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

export interface NewMember {
  sourceType: SourceType;
  sourceId: number;
  userId: number;
  accessLevel: number;
  expiresAt?: string | null;
  notificationLevel?: number | null;
  createdById?: number | null;
}

export function insertMember(db: Executor, member: NewMember): Promise<MemberRow> {
  const at = now();
  return db
    .insertInto('members')
    .values({
      source_type: member.sourceType,
      source_id: member.sourceId,
      user_id: member.userId,
      access_level: member.accessLevel,
      expires_at: member.expiresAt ?? null,
      notification_level: member.notificationLevel === undefined ? 3 : member.notificationLevel,
      created_by_id: member.createdById ?? null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findMember(
  db: Executor,
  sourceType: SourceType,
  sourceId: number,
  userId: number,
): Promise<MemberRow | undefined> {
  return db
    .selectFrom('members')
    .selectAll()
    .where('source_type', '=', sourceType)
    .where('source_id', '=', sourceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export interface AccessRow {
  kind: 'Project' | 'Namespace' | 'Share';
  /** projects.id for Project and Share rows, the group's namespace id for Namespace rows. */
  source_id: number;
  access_level: number;
  notification_level: number | null;
}

/**
 * The caller's unexpired memberships that bear on these projects: direct project memberships, memberships
 * of the projects' groups, and memberships of groups the projects are shared with (capped at the share's
 * group_access). One query of three index lookups.
 */
export async function accessRows(
  db: Executor,
  userId: number,
  projectIds: number[],
  groupIds: number[],
): Promise<AccessRow[]> {
  if (projectIds.length === 0) return [];
  const day = today();
  const unexpired = sql<boolean>`(m.expires_at is null or m.expires_at > ${day})`;
  let query = db
    .selectFrom('members as m')
    .select([
      sql<AccessRow['kind']>`'Project'`.as('kind'),
      'm.source_id',
      'm.access_level',
      'm.notification_level',
    ])
    .where('m.user_id', '=', userId)
    .where('m.source_type', '=', 'Project')
    .where('m.source_id', 'in', projectIds)
    .where(unexpired)
    .unionAll(
      db
        .selectFrom('project_group_links as l')
        .innerJoin('members as m', (join) =>
          join
            .onRef('m.source_id', '=', 'l.group_id')
            .on('m.source_type', '=', 'Namespace')
            .on('m.user_id', '=', userId),
        )
        .select([
          sql<AccessRow['kind']>`'Share'`.as('kind'),
          'l.project_id as source_id',
          sql<number>`case when m.access_level < l.group_access then m.access_level else l.group_access end`.as(
            'access_level',
          ),
          'm.notification_level',
        ])
        .where('l.project_id', 'in', projectIds)
        .where(sql<boolean>`(l.expires_at is null or l.expires_at > ${day})`)
        .where(unexpired),
    );
  if (groupIds.length > 0) {
    query = query.unionAll(
      db
        .selectFrom('members as m')
        .select([
          sql<AccessRow['kind']>`'Namespace'`.as('kind'),
          'm.source_id',
          'm.access_level',
          'm.notification_level',
        ])
        .where('m.user_id', '=', userId)
        .where('m.source_type', '=', 'Namespace')
        .where('m.source_id', 'in', groupIds)
        .where(unexpired),
    );
  }
  return (await query.execute()) as AccessRow[];
}
