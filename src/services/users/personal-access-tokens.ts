// Personal access tokens: made (the secret is returned once and only its SHA-256 is stored), revoked,
// and stamped when used. The secret is `glpat-` and 20 random URL-safe characters (GitLab's prefix since
// 14.5, which secret scanners know); the prefix also tells the auth hook which one table to look in.
import crypto from 'node:crypto';
import type { Deps } from '../../deps.ts';
import {
  findTokenWithUserByDigest,
  insertPersonalAccessToken,
  type TokenWithUser,
  revokePersonalAccessToken,
  touchPersonalAccessToken,
} from '../../db/repositories/personal-access-tokens.ts';
import { validationFailed } from '../../errors.ts';
import { isTokenActive } from '../../policies/access-tokens.ts';
import { now, today } from '../../lib/clock.ts';
import { friendlyToken } from '../../lib/tokens.ts';
import type { PersonalAccessTokenRow } from '../../db/types.ts';

export const PERSONAL_ACCESS_TOKEN_PREFIX = 'glpat-';

/**
 * last_used_at moves at most once a minute per token: a request within the minute writes nothing (every
 * write empties each process's read cache, so a stamp per request would cost every reader).
 */
const LAST_USED_INTERVAL_MS = 60_000;

export function tokenDigest(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/**
 * The token behind a secret and its user, in one indexed read; undefined when no token has that secret
 * or it is revoked or expired (from its expiry day on).
 */
export async function findActiveAccessToken(deps: Deps, secret: string): Promise<TokenWithUser | undefined> {
  const found = await findTokenWithUserByDigest(deps.db.kysely, tokenDigest(secret));
  return found && isTokenActive(found.token, today()) ? found : undefined;
}

export interface NewPersonalAccessToken {
  name: string;
  /** Known scopes only (the parameter reader refuses others). */
  scopes: string[];
  /** YYYY-MM-DD or null (never expires). */
  expiresAt: string | null;
  description: string | null;
}

/** The new token's row and its secret, which nobody can read again. */
export async function createPersonalAccessToken(
  deps: Deps,
  userId: number,
  input: NewPersonalAccessToken,
): Promise<{ row: PersonalAccessTokenRow; token: string }> {
  const problems: Record<string, string[]> = {};
  if (input.name.trim() === '') problems.name = ["can't be blank"];
  if (input.scopes.length === 0) problems.scopes = ["can't be blank"];
  if (input.expiresAt !== null && input.expiresAt < today()) problems.expires_at = ['cannot be in the past'];
  if (Object.keys(problems).length > 0) throw validationFailed(problems);
  const token = PERSONAL_ACCESS_TOKEN_PREFIX + friendlyToken();
  const at = now();
  const row = await insertPersonalAccessToken(deps.db.kysely, {
    user_id: userId,
    name: input.name,
    description: input.description,
    token_digest: tokenDigest(token),
    scopes: [...new Set(input.scopes)].join(' '),
    expires_at: input.expiresAt,
    created_at: at,
    updated_at: at,
  });
  return { row, token };
}

export function revokeAccessToken(deps: Deps, id: number): Promise<boolean> {
  return revokePersonalAccessToken(deps.db.kysely, id, now());
}

/** Called on each authenticated use; writes only when the last stamp is a minute old or missing. */
export async function noteAccessTokenUse(deps: Deps, token: PersonalAccessTokenRow): Promise<void> {
  const at = Date.now();
  if (token.last_used_at !== null && Date.parse(token.last_used_at) > at - LAST_USED_INTERVAL_MS) return;
  const staleBefore = new Date(at - LAST_USED_INTERVAL_MS).toISOString();
  await touchPersonalAccessToken(deps.db.kysely, token.id, new Date(at).toISOString(), staleBefore);
}
