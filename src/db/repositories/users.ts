// Users and their personal namespaces. Every lookup here is on a unique index (token, id, lower(username),
// lower(email)).
import { sql } from 'kysely';
import { identitiesByUser } from './identities.ts';
import { personalProjectCounts } from './projects.ts';
import { inList, prepared } from '../prepared.ts';
import type {
  Executor,
  NewNamespaceRow,
  NewUserRow,
  UserChanges,
  UserBasicRow,
  UserFullExtras,
  UserRow,
} from '../types.ts';
import type { UserState } from '../../domain/types.ts';

/**
 * Every column of users, named: a prepared `select *` would change its result shape when a migration adds
 * a column while the statement is kept (PostgreSQL then refuses the cached plan).
 */
export const USER_COLUMNS = [
  'id',
  'username',
  'name',
  'email',
  'avatar',
  'encrypted_password',
  'authentication_token',
  'state',
  'admin',
  'external',
  'can_create_group',
  'projects_limit',
  'bio',
  'location',
  'skype',
  'linkedin',
  'twitter',
  'website_url',
  'organization',
  'theme_id',
  'color_scheme_id',
  'two_factor_enabled',
  'confirmed_at',
  'last_sign_in_at',
  'current_sign_in_at',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof UserRow>;

// Every API request starts here (the auth hook).
const userByToken = prepared<{ token: string }>()((db, slot) =>
  db.selectFrom('users').select(USER_COLUMNS).where('authentication_token', '=', slot('token')),
);

export function findUserByToken(db: Executor, token: string): Promise<UserRow | undefined> {
  return userByToken.first(db, { token });
}

// GET /user: the caller's identities and personal project count in one statement (one row per identity,
// or one row of nulls without any; each row carries the count).
const fullExtrasOf = prepared<{ id: number }>()((db, slot) =>
  db
    .selectFrom('users as u')
    .leftJoin('identities as i', 'i.user_id', 'u.id')
    .select(['i.provider', 'i.extern_uid'])
    .select((eb) =>
      eb
        .selectFrom('namespaces as n')
        .innerJoin('projects as p', 'p.namespace_id', 'n.id')
        .select((inner) => inner.fn.countAll<number>().as('count'))
        .where('n.owner_id', '=', slot('id'))
        .where('n.type', 'is', null)
        .as('personal_project_count'),
    )
    .where('u.id', '=', slot('id'))
    .orderBy('i.id'),
);

/** The administrator-form extras of one user (userFullExtrasByIds for a page). */
export async function userFullExtras(db: Executor, userId: number): Promise<UserFullExtras> {
  const rows = await fullExtrasOf.all(db, { id: userId });
  return {
    identities: rows.flatMap((row) =>
      row.provider !== null && row.extern_uid !== null
        ? [{ provider: row.provider, extern_uid: row.extern_uid }]
        : [],
    ),
    personalProjectCount: Number(rows[0]?.personal_project_count ?? 0),
  };
}

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Users of a page (owners, event authors) in one query. */
const usersOf = prepared<{ ids: number[] }>()((db, slot) =>
  db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where(() => inList(db, 'id', slot('ids'))),
);

export async function usersByIds(db: Executor, ids: number[]): Promise<Map<number, UserRow>> {
  const unique = [...new Set(ids)];
  const result = new Map<number, UserRow>();
  if (unique.length === 0) return result;
  const rows = await usersOf.all(db, { ids: unique });
  for (const row of rows) result.set(row.id, row);
  return result;
}

/** The columns of a UserBasicRow: what a page embeds of each user it names. */
export const USER_BASIC_COLUMNS = [
  'id',
  'username',
  'name',
  'email',
  'avatar',
  'state',
  'created_at',
] as const satisfies ReadonlyArray<keyof UserBasicRow>;

const basicUsersByIds = prepared<{ ids: number[] }>()((db, slot) =>
  db
    .selectFrom('users')
    .select(USER_BASIC_COLUMNS)
    .where(() => inList(db, 'id', slot('ids'))),
);

/**
 * The users a page names, as it embeds them: one prepared statement whatever the page's length, and six
 * columns instead of every one (each value read costs; a page of twenty authors read 520).
 */
export async function findBasicUsersByIds(db: Executor, ids: number[]): Promise<Map<number, UserBasicRow>> {
  const result = new Map<number, UserBasicRow>();
  if (ids.length === 0) return result;
  for (const row of await basicUsersByIds.all(db, { ids: [...new Set(ids)] })) result.set(row.id, row);
  return result;
}

/** Identities and personal project counts of many users: one query per kind, never one per user. */
export async function userFullExtrasByIds(
  db: Executor,
  userIds: number[],
): Promise<Map<number, UserFullExtras>> {
  const [identities, counts] = await Promise.all([
    identitiesByUser(db, userIds),
    personalProjectCounts(db, userIds),
  ]);
  const result = new Map<number, UserFullExtras>();
  for (const id of userIds) {
    result.set(id, { identities: identities.get(id) ?? [], personalProjectCount: counts.get(id) ?? 0 });
  }
  return result;
}

// Git over HTTP signs in by username or email on every request.
const userByUsername = prepared<{ username: string }>()((db, slot) =>
  db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where(sql`lower(username)`, '=', slot('username')),
);
const userByEmail = prepared<{ email: string }>()((db, slot) =>
  db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where(sql`lower(email)`, '=', slot('email')),
);

export function findUserByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
  return userByUsername.first(db, { username: username.toLowerCase() });
}

export function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return userByEmail.first(db, { email: email.toLowerCase() });
}

/** Records a sign-in: the previous current_sign_in_at becomes last_sign_in_at. */
export async function recordSignIn(db: Executor, user: UserRow, at: string): Promise<UserRow> {
  const stamps = { last_sign_in_at: user.current_sign_in_at ?? at, current_sign_in_at: at };
  await db.updateTable('users').set(stamps).where('id', '=', user.id).execute();
  return { ...user, ...stamps };
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

export interface UserListFilter {
  /** Only users whose state is active. */
  active?: boolean;
  /** Case-insensitive substring of username, email or name. */
  search?: string;
  /** v4's filters: an exact username, blocked (any blocked state) or external users, a creation window. */
  username?: string;
  blocked?: boolean;
  external?: boolean;
  createdAfter?: string;
  createdBefore?: string;
}

/** A list's order: a column and a direction, ties broken by id in the same direction. */
export interface UserListOrder {
  column: 'id' | 'name' | 'username' | 'created_at' | 'updated_at';
  direction: 'asc' | 'desc';
}

const ID_ORDER: UserListOrder = { column: 'id', direction: 'asc' };

/** `%text%` for LIKE with the wildcards of the text itself escaped. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function filteredUserIds(db: Executor, filter: UserListFilter) {
  let query = db.selectFrom('users').select('users.id');
  if (filter.active) query = query.where('users.state', '=', 'active');
  if (filter.blocked) query = query.where('users.state', 'in', ['blocked', 'ldap_blocked']);
  if (filter.external) query = query.where('users.external', '=', 1);
  if (filter.username !== undefined) {
    query = query.where(sql`lower(users.username)`, '=', filter.username.toLowerCase());
  }
  if (filter.createdAfter !== undefined) query = query.where('users.created_at', '>=', filter.createdAfter);
  if (filter.createdBefore !== undefined) query = query.where('users.created_at', '<=', filter.createdBefore);
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

/** One page of users (id order unless told); the offset runs over the ids before rows are read (deferred join). */
export function listUsers(
  db: Executor,
  filter: UserListFilter,
  offset: number,
  limit: number,
  order: UserListOrder = ID_ORDER,
): Promise<UserRow[]> {
  // The id tie-breaker only after another column; ascending is written as the default, so the id-order
  // statement stays the one the plan tests know.
  const direction = order.direction === 'desc' ? 'desc' : undefined;
  let ids = filteredUserIds(db, filter).orderBy(`users.${order.column}`, direction);
  if (order.column !== 'id') ids = ids.orderBy('users.id', direction);
  let rows = db
    .selectFrom('users')
    .selectAll()
    .where('id', 'in', ids.limit(limit).offset(offset))
    .orderBy(order.column, direction);
  if (order.column !== 'id') rows = rows.orderBy('id', direction);
  return rows.execute();
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

export function insertUser(db: Executor, values: NewUserRow): Promise<UserRow> {
  return db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

/** The row of a user's personal namespace (named and pathed after the username). */
export function personalNamespaceValues(user: { id: number; username: string }, at: string): NewNamespaceRow {
  return {
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
  };
}

export async function insertPersonalNamespace(
  db: Executor,
  user: { id: number; username: string },
  at: string,
): Promise<void> {
  await db.insertInto('namespaces').values(personalNamespaceValues(user, at)).execute();
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

/** Moves a user from one state to another only if it is still in the expected state; true when it moved. */
export async function transitionUserState(
  db: Executor,
  id: number,
  from: UserState[],
  to: UserState,
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

/** Removes the user row and its personal namespace (keys, emails and identities go first). */
export async function deleteUserWithNamespace(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('namespaces').where('owner_id', '=', userId).where('type', 'is', null).execute();
  await db.deleteFrom('users').where('id', '=', userId).execute();
}
