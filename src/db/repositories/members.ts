// Memberships of projects (source_type 'Project') and groups ('Namespace'): the members API's lists
// (walking the unique (source_type, source_id, user_id) index, the page's users in the same query) and
// changes, and the access rows the project policy reads: the caller's project membership, group
// membership and group shares, for one project or a page of them, in one indexed query.
import { sql, type Selectable } from 'kysely';
import { now, today } from '../../lib/clock.ts';
import type { UsersTable } from '../schema.ts';
import type { AccessRow, Executor, MemberRow, MemberWithUser, SourceType } from '../types.ts';

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
  // The caller's own memberships of these projects or groups.
  const direct = (kind: SourceType, ids: number[]) =>
    db
      .selectFrom('members as m')
      .select([
        sql<AccessRow['kind']>`${sql.lit(kind)}`.as('kind'),
        'm.source_id',
        'm.access_level',
        'm.notification_level',
      ])
      .where('m.user_id', '=', userId)
      .where('m.source_type', '=', kind)
      .where('m.source_id', 'in', ids)
      .where(unexpired);
  let query = direct('Project', projectIds).unionAll(
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
    query = query.unionAll(direct('Namespace', groupIds));
  }
  return (await query.execute()) as AccessRow[];
}

function membersQuery(db: Executor, sourceType: SourceType, sourceId: number, search?: string) {
  let query = db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.source_type', '=', sourceType)
    .where('m.source_id', '=', sourceId);
  if (search) {
    // GitLab's User.search: name, email or username, case-insensitive substring.
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    query = query.where((eb) => eb.or([like('u.name'), like('u.email'), like('u.username')]));
  }
  return query;
}

export async function countMembers(
  db: Executor,
  sourceType: SourceType,
  sourceId: number,
  search?: string,
): Promise<number> {
  const row = await membersQuery(db, sourceType, sourceId, search)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listMembers(
  db: Executor,
  sourceType: SourceType,
  sourceId: number,
  page: { offset: number; limit: number },
  search?: string,
): Promise<MemberWithUser[]> {
  const rows = await membersQuery(db, sourceType, sourceId, search)
    .selectAll('u')
    .select([
      'm.id as m_id',
      'm.access_level as m_access_level',
      'm.expires_at as m_expires_at',
      'm.notification_level as m_notification_level',
      'm.created_by_id as m_created_by_id',
      'm.created_at as m_created_at',
      'm.updated_at as m_updated_at',
    ])
    .orderBy('m.user_id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => {
    const {
      m_id,
      m_access_level,
      m_expires_at,
      m_notification_level,
      m_created_by_id,
      m_created_at,
      m_updated_at,
      ...user
    } = row;
    return {
      user: user as Selectable<UsersTable>,
      member: {
        id: m_id,
        source_type: sourceType,
        source_id: sourceId,
        user_id: user.id,
        access_level: m_access_level,
        expires_at: m_expires_at,
        notification_level: m_notification_level,
        created_by_id: m_created_by_id,
        created_at: m_created_at,
        updated_at: m_updated_at,
      },
    };
  });
}

export async function updateMember(
  db: Executor,
  id: number,
  changes: { access_level?: number; expires_at?: string | null; updated_at: string },
): Promise<MemberRow> {
  return db.updateTable('members').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteMember(db: Executor, id: number): Promise<number> {
  const result = await db.deleteFrom('members').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function countGroupOwners(db: Executor, groupId: number): Promise<number> {
  const row = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('source_type', '=', 'Namespace')
    .where('source_id', '=', groupId)
    .where('access_level', '=', 50)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Serializes membership changes of one group on PostgreSQL (SQLite already has a single writer). */
export async function lockNamespace(db: Executor, dialect: string, id: number): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.selectFrom('namespaces').select('id').where('id', '=', id).forUpdate().execute();
}
