// Requests to join a project or a group: one row per (holder, user), listed by the holder's unique
// index with the page's users in the same query; and the holder's masters and owners, whom a request
// is mailed to.
import type { Selectable } from 'kysely';
import type { UsersTable } from '../schema.ts';
import type { AccessRequestRow, Executor, SourceType, UserRow } from '../types.ts';

export interface AccessRequestHolder {
  type: SourceType;
  id: number;
}

const holderColumn = (holder: AccessRequestHolder) => (holder.type === 'Project' ? 'project_id' : 'group_id');

export function insertAccessRequest(
  db: Executor,
  holder: AccessRequestHolder,
  userId: number,
  requestedAt: string,
): Promise<AccessRequestRow> {
  return db
    .insertInto('access_requests')
    .values({
      project_id: holder.type === 'Project' ? holder.id : null,
      group_id: holder.type === 'Namespace' ? holder.id : null,
      user_id: userId,
      requested_at: requestedAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findAccessRequest(
  db: Executor,
  holder: AccessRequestHolder,
  userId: number,
): Promise<AccessRequestRow | undefined> {
  return db
    .selectFrom('access_requests')
    .selectAll()
    .where(holderColumn(holder), '=', holder.id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function deleteAccessRequest(db: Executor, id: number): Promise<number> {
  const result = await db.deleteFrom('access_requests').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function countAccessRequests(db: Executor, holder: AccessRequestHolder): Promise<number> {
  const row = await db
    .selectFrom('access_requests')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(holderColumn(holder), '=', holder.id)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export interface AccessRequestWithUser {
  request: AccessRequestRow;
  user: UserRow;
}

/** A page of the holder's requests, oldest first, each with its user (one query). */
export async function listAccessRequests(
  db: Executor,
  holder: AccessRequestHolder,
  page: { offset: number; limit: number },
): Promise<AccessRequestWithUser[]> {
  const rows = await db
    .selectFrom('access_requests as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .selectAll('u')
    .select([
      'r.id as r_id',
      'r.project_id as r_project_id',
      'r.group_id as r_group_id',
      'r.requested_at as r_requested_at',
    ])
    .where(`r.${holderColumn(holder)}`, '=', holder.id)
    .orderBy('r.user_id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map(({ r_id, r_project_id, r_group_id, r_requested_at, ...user }) => ({
    user: user as Selectable<UsersTable>,
    request: {
      id: r_id,
      project_id: r_project_id,
      group_id: r_group_id,
      user_id: user.id,
      requested_at: r_requested_at,
    },
  }));
}

/** Active users holding master or owner membership of the project or group (owners_and_masters). */
export function mastersOf(db: Executor, sourceType: SourceType, sourceId: number): Promise<UserRow[]> {
  return db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('u')
    .where('m.source_type', '=', sourceType)
    .where('m.source_id', '=', sourceId)
    .where('m.access_level', '>=', 40)
    .where('u.state', '=', 'active')
    .orderBy('u.id')
    .execute();
}
