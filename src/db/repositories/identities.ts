// External identities of users (provider + extern_uid, e.g. LDAP). Lookups use the (user_id, provider)
// and (provider, extern_uid) indexes.
import type { Executor, Identity } from '../types.ts';

/** Identities of many users at once (one query per page, never one per user). */
export async function identitiesByUser(db: Executor, userIds: number[]): Promise<Map<number, Identity[]>> {
  const result = new Map<number, Identity[]>();
  if (userIds.length === 0) return result;
  const rows = await db
    .selectFrom('identities')
    .select(['user_id', 'provider', 'extern_uid'])
    .where('user_id', 'in', userIds)
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = result.get(row.user_id) ?? [];
    list.push({ provider: row.provider, extern_uid: row.extern_uid });
    result.set(row.user_id, list);
  }
  return result;
}

export function findIdentity(
  db: Executor,
  userId: number,
  provider: string,
): Promise<{ id: number; extern_uid: string } | undefined> {
  return db
    .selectFrom('identities')
    .select(['id', 'extern_uid'])
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .executeTakeFirst();
}

/** Another user's identity with this provider and extern_uid (extern_uid is unique per provider). */
export async function externUidTaken(
  db: Executor,
  provider: string,
  externUid: string,
  exceptUserId?: number,
): Promise<boolean> {
  let query = db
    .selectFrom('identities')
    .select('id')
    .where('provider', '=', provider)
    .where('extern_uid', '=', externUid)
    .where('extern_uid', '<>', '');
  if (exceptUserId !== undefined) query = query.where('user_id', '!=', exceptUserId);
  return Boolean(await query.executeTakeFirst());
}

export async function insertIdentity(
  db: Executor,
  userId: number,
  provider: string,
  externUid: string,
  at: string,
): Promise<void> {
  await db
    .insertInto('identities')
    .values({ user_id: userId, provider, extern_uid: externUid, created_at: at })
    .execute();
}

export async function updateIdentityExternUid(db: Executor, id: number, externUid: string): Promise<void> {
  await db.updateTable('identities').set({ extern_uid: externUid }).where('id', '=', id).execute();
}

export async function deleteIdentitiesOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('identities').where('user_id', '=', userId).execute();
}
