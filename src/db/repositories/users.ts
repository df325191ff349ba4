// Users and their personal namespaces. Every lookup here is on a unique index (token, id, lower(username),
// lower(email)).
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, UsersTable } from '../schema.ts';

export type UserRow = Selectable<UsersTable>;
export type Executor = Kysely<Database>;

export function findUserByToken(db: Executor, token: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('authentication_token', '=', token).executeTakeFirst();
}

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/** Records a sign-in: the previous current_sign_in_at becomes last_sign_in_at. */
export async function recordSignIn(db: Executor, user: UserRow, at: string): Promise<UserRow> {
  const stamps = { last_sign_in_at: user.current_sign_in_at ?? at, current_sign_in_at: at };
  await db.updateTable('users').set(stamps).where('id', '=', user.id).execute();
  return { ...user, ...stamps };
}

/** Identities of many users at once (one query per page, never one per user). */
export async function identitiesByUser(
  db: Executor,
  userIds: number[],
): Promise<Map<number, Array<{ provider: string; extern_uid: string }>>> {
  const result = new Map<number, Array<{ provider: string; extern_uid: string }>>();
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

/** Whether an email is in use as any user's primary or secondary email (GitLab checked both tables). */
export async function isEmailTaken(db: Executor, email: string, exceptUserId?: number): Promise<boolean> {
  const lower = email.trim().toLowerCase();
  let primary = db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(email)`, '=', lower);
  let secondary = db
    .selectFrom('emails')
    .select('id')
    .where(sql`lower(email)`, '=', lower);
  if (exceptUserId !== undefined) {
    primary = primary.where('id', '!=', exceptUserId);
    secondary = secondary.where('user_id', '!=', exceptUserId);
  }
  const [a, b] = await Promise.all([primary.executeTakeFirst(), secondary.executeTakeFirst()]);
  return Boolean(a || b);
}

export type NewUserRow = Insertable<UsersTable>;
export type UserChanges = Updateable<UsersTable>;

export interface UserListFilter {
  /** Only users whose state is active. */
  active?: boolean;
  /** Case-insensitive substring of username, email or name. */
  search?: string;
}

/** `%text%` for LIKE with the wildcards of the text itself escaped. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function filteredUserIds(db: Executor, filter: UserListFilter) {
  let query = db.selectFrom('users').select('users.id');
  if (filter.active) query = query.where('users.state', '=', 'active');
  if (filter.search !== undefined) {
    const pattern = containsPattern(filter.search);
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(users.username)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(users.email)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(users.name)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  return query;
}

export async function countUsers(db: Executor, filter: UserListFilter): Promise<number> {
  const row = await filteredUserIds(db, filter)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** One page of users in id order; the offset runs over the id index before rows are read (deferred join). */
export function listUsers(
  db: Executor,
  filter: UserListFilter,
  offset: number,
  limit: number,
): Promise<UserRow[]> {
  const ids = filteredUserIds(db, filter).orderBy('users.id').limit(limit).offset(offset);
  return db.selectFrom('users').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

/** `?username=` is an exact match (GitLab's where(username:)); lower() lets it use the unique index. */
export function findUsersByExactUsername(db: Executor, username: string): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .where('username', '=', username)
    .execute();
}

/** Another user whose primary email or username is exactly this value (GitLab's 409 checks). */
export async function userWithExactEmailExists(
  db: Executor,
  email: string,
  exceptUserId?: number,
): Promise<boolean> {
  let query = db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('email', '=', email);
  if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
  return Boolean(await query.executeTakeFirst());
}

export async function userWithExactUsernameExists(
  db: Executor,
  username: string,
  exceptUserId?: number,
): Promise<boolean> {
  let query = db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .where('username', '=', username);
  if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
  return Boolean(await query.executeTakeFirst());
}

/** Case-insensitive username uniqueness among users (GitLab: uniqueness case_sensitive: false). */
export async function usernameTaken(db: Executor, username: string, exceptUserId?: number): Promise<boolean> {
  let query = db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(username)`, '=', username.toLowerCase());
  if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
  return Boolean(await query.executeTakeFirst());
}

/** The namespace (personal or group) holding this path, case-insensitively. */
export function findNamespaceByPath(
  db: Executor,
  path: string,
): Promise<{ id: number; owner_id: number | null; type: string | null } | undefined> {
  return db
    .selectFrom('namespaces')
    .select(['id', 'owner_id', 'type'])
    .where(sql`lower(path)`, '=', path.toLowerCase())
    .executeTakeFirst();
}

export function insertUser(db: Executor, values: NewUserRow): Promise<UserRow> {
  return db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertPersonalNamespace(
  db: Executor,
  user: { id: number; username: string },
  at: string,
): Promise<void> {
  await db
    .insertInto('namespaces')
    .values({
      name: user.username,
      path: user.username,
      owner_id: user.id,
      type: null,
      description: '',
      visibility_level: 20,
      request_access_enabled: 0,
      lfs_enabled: 1,
      share_with_group_lock: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/** Follows a username change, as GitLab's ensure_namespace_correct did. */
export async function renamePersonalNamespace(
  db: Executor,
  userId: number,
  username: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('namespaces')
    .set({ path: username, name: username, updated_at: at })
    .where('owner_id', '=', userId)
    .where('type', 'is', null)
    .execute();
}

export function updateUser(db: Executor, id: number, changes: UserChanges): Promise<UserRow | undefined> {
  return db.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function setUserState(db: Executor, id: number, state: string, at: string): Promise<void> {
  await db.updateTable('users').set({ state, updated_at: at }).where('id', '=', id).execute();
}

/** Moves a user from one state to another only if it is still in the expected state; true when it moved. */
export async function transitionUserState(
  db: Executor,
  id: number,
  from: string[],
  to: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ state: to, updated_at: at })
    .where('id', '=', id)
    .where('state', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
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

/** Another identity with this provider and extern_uid (GitLab: extern_uid unique per provider). */
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

/** The user's own secondary email with this address, if any. */
export function findOwnSecondaryEmail(
  db: Executor,
  userId: number,
  email: string,
): Promise<{ id: number } | undefined> {
  return db
    .selectFrom('emails')
    .select('id')
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function deleteSecondaryEmail(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('emails').where('id', '=', id).execute();
}

export async function insertSecondaryEmail(
  db: Executor,
  userId: number,
  email: string,
  at: string,
): Promise<void> {
  await db.insertInto('emails').values({ user_id: userId, email, created_at: at }).execute();
}

/** Removes the user's keys, secondary emails, identities, personal namespace and the user row. */
export async function deleteUserRows(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('keys').where('user_id', '=', userId).execute();
  await db.deleteFrom('emails').where('user_id', '=', userId).execute();
  await db.deleteFrom('identities').where('user_id', '=', userId).execute();
  await db.deleteFrom('namespaces').where('owner_id', '=', userId).where('type', 'is', null).execute();
  await db.deleteFrom('users').where('id', '=', userId).execute();
}
