// Memberships of projects (source_type 'Project') and groups ('Namespace'), and the access rows the
// project policy reads: the caller's project membership, group membership and group shares, for one
// project or a page of them, in one indexed query.
import { sql } from 'kysely';
import { now } from '../../clock.ts';
import type { Executor } from '../types.ts';
import type { AccessRow, MemberRow, SourceType } from '../types.ts';

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

/** Every membership of a user, project and group alike (a user's deletion removes and announces each). */
export function membershipsOfUser(db: Executor, userId: number): Promise<MemberRow[]> {
  return db.selectFrom('members').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

/** The members of one project or group with their users (a deletion announces each removal). */
export function membersWithUsersOfSource(db: Executor, sourceType: SourceType, sourceId: number) {
  return db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select([
      'members.access_level',
      'members.created_at',
      'members.updated_at',
      'users.id as user_id',
      'users.name',
      'users.username',
      'users.email',
    ])
    .where('members.source_type', '=', sourceType)
    .where('members.source_id', '=', sourceId)
    .orderBy('members.id')
    .execute();
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
