// Member lists and changes for the members API (projects and groups). Lists walk the unique
// (source_type, source_id, user_id) index; the page's users come in the same query.
import { sql, type Selectable } from 'kysely';
import type { UsersTable } from '../schema.ts';
import type { Executor, MemberRow, SourceType } from '../types.ts';
import type { MemberWithUser } from '../types.ts';

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
