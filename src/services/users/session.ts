// Password sign-in for POST /session (Gitlab::Auth.find_with_user_password, 8.13).
import type { Deps } from '../../deps.ts';
import { findUserByEmail, findUserByUsername, recordSignIn } from '../../db/repositories/users.ts';
import { now } from '../../lib/clock.ts';
import { apiError, unauthorized } from '../../errors.ts';
import { canSignIn } from '../../policies/users.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { UserRow } from '../../db/types.ts';

/** A hash at the configured cost to verify against when nobody has the login (one per cost). */
const dummies = new Map<number, Promise<string>>();
function dummyHash(cost: number): Promise<string> {
  let hash = dummies.get(cost);
  if (!hash) dummies.set(cost, (hash = hashPassword('labrador-no-such-user', cost)));
  return hash;
}

/** The user a login names: an email when it holds an @, otherwise a username (both case-insensitive). */
export function findUserByLogin(deps: Deps, login: string): Promise<UserRow | undefined> {
  return login.includes('@')
    ? findUserByEmail(deps.db.kysely, login)
    : findUserByUsername(deps.db.kysely, login);
}

/** The signed-in user, with its sign-in stamps moved on; 401 for anything else. */
export async function signIn(
  deps: Deps,
  login: string | undefined,
  password: string | undefined,
): Promise<UserRow> {
  if (!login || !password) throw unauthorized();
  const db = deps.db.kysely;
  // An email login may come with surrounding blanks.
  const user = await findUserByLogin(deps, login.includes('@') ? login.trim() : login);
  if (!user) {
    // Spend the same hashing time as for a real user, so response times do not reveal who exists.
    await verifyPassword(password, await dummyHash(deps.config.passwordHashCost));
    throw unauthorized();
  }
  if (!(await verifyPassword(password, user.encrypted_password))) throw unauthorized();
  // GitLab handed blocked users their token, which then failed everywhere; Labrador refuses at once.
  if (!canSignIn(user)) throw unauthorized();
  if (user.two_factor_enabled === 1) {
    throw apiError(
      401,
      '401 Unauthorized. You have 2FA enabled. Please use a personal access token to access the API',
    );
  }
  return recordSignIn(db, user, now());
}
