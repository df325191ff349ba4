// Browser sessions (migration 025-web-sessions): found by the SHA-256 of the cookie's secret, joined to
// their user in one statement; expired rows never match and are purged as new ones are made.
import type { Executor, UserRow, WebSessionRow } from '../types.ts';

export interface SessionWithUser {
  session: Pick<WebSessionRow, 'id' | 'csrf_token' | 'expires_at'>;
  user: UserRow;
  /** The user's pending todos: the count every page's header shows, read in the same statement. */
  pendingTodos: number;
}

export async function findLiveSession(
  db: Executor,
  tokenHash: string,
  at: string,
): Promise<SessionWithUser | undefined> {
  const row = await db
    .selectFrom('web_sessions')
    .innerJoin('users', 'users.id', 'web_sessions.user_id')
    .selectAll('users')
    .select([
      'web_sessions.id as session_id',
      'web_sessions.csrf_token as session_csrf_token',
      'web_sessions.expires_at as session_expires_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('todos')
        .select((inner) => inner.fn.countAll<number>().as('count'))
        .whereRef('todos.user_id', '=', 'users.id')
        .where('todos.state', '=', 'pending')
        .as('pending_todos'),
    )
    .where('web_sessions.token_hash', '=', tokenHash)
    .where('web_sessions.expires_at', '>', at)
    .executeTakeFirst();
  if (!row) return undefined;
  const { session_id, session_csrf_token, session_expires_at, pending_todos, ...user } = row;
  return {
    session: { id: session_id, csrf_token: session_csrf_token, expires_at: session_expires_at },
    user: user as UserRow,
    pendingTodos: Number(pending_todos ?? 0),
  };
}

export function insertWebSession(
  db: Executor,
  values: Omit<WebSessionRow, 'id'>,
): Promise<Pick<WebSessionRow, 'id'>> {
  return db.insertInto('web_sessions').values(values).returning('id').executeTakeFirstOrThrow();
}

export async function deleteWebSessionByHash(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Every session of a user but one (kept: the browser that changed the password). */
export async function deleteWebSessionsOfUser(
  db: Executor,
  userId: number,
  exceptId?: number,
): Promise<void> {
  let query = db.deleteFrom('web_sessions').where('user_id', '=', userId);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  await query.execute();
}

export async function deleteExpiredWebSessions(db: Executor, at: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('expires_at', '<=', at).execute();
}
