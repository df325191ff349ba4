// Users and their personal namespaces. Every lookup here is on a unique index (token, id, lower(username),
// lower(email)).
import { sql, type Kysely, type Selectable } from 'kysely';
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
