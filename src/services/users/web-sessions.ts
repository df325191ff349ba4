// Browser sessions: a random secret in the cookie, only its SHA-256 in the database, a form token per
// session, a fixed lifetime (GitLab 8.13's session_expire_delay: 7 days). Signing in always starts a new
// session (no fixation); signing out deletes the row, so a copied cookie is dead at once; a blocked user's
// sessions stop working at the next request (the lookup applies the sign-in policy).
import crypto from 'node:crypto';
import type { Deps } from '../../deps.ts';
import {
  deleteWebSessionByHash,
  deleteWebSessionsOfUser,
  findLiveSession,
  insertWebSession,
} from '../../db/repositories/web-sessions.ts';
import { recordSignIn } from '../../db/repositories/users.ts';
import { canSignIn } from '../../policies/users.ts';
import type { UserRow } from '../../db/types.ts';

const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

export interface WebSession {
  id: number;
  user: UserRow;
  csrfToken: string;
  expiresAt: string;
  pendingTodos: number;
}

export function randomToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

function tokenHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('base64url');
}

/** The live session a cookie's secret names, with its (still allowed) user; undefined otherwise. */
export async function findWebSession(deps: Deps, token: string): Promise<WebSession | undefined> {
  if (token.length > 100) return undefined;
  const found = await findLiveSession(deps.db.kysely, tokenHash(token), new Date().toISOString());
  if (!found || !canSignIn(found.user)) return undefined;
  return {
    id: found.session.id,
    user: found.user,
    csrfToken: found.session.csrf_token,
    expiresAt: found.session.expires_at,
    pendingTodos: found.pendingTodos,
  };
}

/**
 * Starts a session for a user whose password was just checked: the cookie's secret (returned once, never
 * stored) and the session's form token. The sign-in stamps move on in the same transaction.
 */
export async function startWebSession(
  deps: Deps,
  user: UserRow,
  client: { ip: string; userAgent: string },
): Promise<{ token: string; csrfToken: string; expiresAt: Date }> {
  const token = randomToken();
  const csrfToken = randomToken();
  const at = new Date();
  const expiresAt = new Date(at.getTime() + SESSION_LIFETIME_MS);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await insertWebSession(trx, {
      token_hash: tokenHash(token),
      user_id: user.id,
      csrf_token: csrfToken,
      ip: client.ip.slice(0, 100),
      user_agent: client.userAgent.slice(0, 500),
      created_at: at.toISOString(),
      expires_at: expiresAt.toISOString(),
    });
    await recordSignIn(trx, user, at.toISOString());
  });
  return { token, csrfToken, expiresAt };
}

export async function endWebSession(deps: Deps, token: string): Promise<void> {
  await deleteWebSessionByHash(deps.db.kysely, tokenHash(token));
}

/** Ends every other session of the user (after a password change). */
export async function endOtherWebSessions(deps: Deps, userId: number, keepSessionId: number): Promise<void> {
  await deleteWebSessionsOfUser(deps.db.kysely, userId, keepSessionId);
}
