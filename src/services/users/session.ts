// Password sign-in for POST /session and the sign-in form (Gitlab::Auth.find_with_user_password, 8.13),
// behind the failed sign-in limiter (sign-in-limiter.ts).
import type { Deps } from '../../deps.ts';
import { findUserByEmail, findUserByUsername, recordSignIn } from '../../db/repositories/users.ts';
import { now } from '../../lib/clock.ts';
import { ApiError, apiError, unauthorized } from '../../errors.ts';
import { canSignIn } from '../../policies/users.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { UserRow } from '../../db/types.ts';
import { assertNotBanned, recordSignInFailure, SignInBanned } from './sign-in-limiter.ts';

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

/** Why a password sign-in did not produce a user. */
export type PasswordRefusal = 'invalid' | 'blocked';

/**
 * The user whose login and password these are, checked by the limiter first: SignInBanned while the
 * address is banned (no password is checked), a recorded failure for a wrong login or password.
 */
export async function checkPassword(
  deps: Deps,
  address: string,
  login: string,
  password: string,
): Promise<UserRow | PasswordRefusal> {
  await assertNotBanned(deps, address);
  // An email login may come with surrounding blanks.
  const user = await findUserByLogin(deps, login.includes('@') ? login.trim() : login);
  if (!user) {
    // Spend the same hashing time as for a real user, so response times do not reveal who exists.
    await verifyPassword(password, await dummyHash(deps.config.passwordHashCost));
    await recordSignInFailure(deps, address);
    return 'invalid';
  }
  if (!(await verifyPassword(password, user.encrypted_password))) {
    await recordSignInFailure(deps, address);
    return 'invalid';
  }
  return canSignIn(user) ? user : 'blocked';
}

/** 429 with Retry-After for a banned address, as the API answers it. */
function tooManySignIns(banned: SignInBanned) {
  return new ApiError(
    429,
    { message: '429 Too Many Requests' },
    { 'Retry-After': String(banned.retryAfterSeconds) },
  );
}

/** The signed-in user, with its sign-in stamps moved on; 401 for anything else, 429 while banned. */
export async function signIn(
  deps: Deps,
  address: string,
  login: string | undefined,
  password: string | undefined,
): Promise<UserRow> {
  if (!login || !password) throw unauthorized();
  const db = deps.db.kysely;
  let user: UserRow | PasswordRefusal;
  try {
    user = await checkPassword(deps, address, login, password);
  } catch (error) {
    if (error instanceof SignInBanned) throw tooManySignIns(error);
    throw error;
  }
  // GitLab handed blocked users their token, which then failed everywhere; Labrador refuses at once.
  if (typeof user === 'string') throw unauthorized();
  if (user.two_factor_enabled === 1) {
    throw apiError(
      401,
      '401 Unauthorized. You have 2FA enabled. Please use a personal access token to access the API',
    );
  }
  return recordSignIn(db, user, now());
}
