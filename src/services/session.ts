// Password sign-in for POST /session (Gitlab::Auth.find_with_user_password, 8.13).
import type { Deps } from '../deps.ts';
import { findUserByEmail, findUserByUsername, recordSignIn, type UserRow } from '../db/repositories/users.ts';
import { now } from '../db/errors.ts';
import { apiError, unauthorized } from '../http/errors.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= hashPassword('labrador-no-such-user'));

/** The signed-in user, with its sign-in stamps moved on; 401 for anything else. */
export async function signIn(
  deps: Deps,
  login: string | undefined,
  password: string | undefined,
): Promise<UserRow> {
  if (!login || !password) throw unauthorized();
  const db = deps.db.kysely;
  // A login with an @ is an email, otherwise a username; both case-insensitive.
  const user = login.includes('@')
    ? await findUserByEmail(db, login.trim())
    : await findUserByUsername(db, login);
  if (!user) {
    // Spend the same hashing time as for a real user, so response times do not reveal who exists.
    await verifyPassword(password, await dummyHash());
    throw unauthorized();
  }
  if (!(await verifyPassword(password, user.encrypted_password))) throw unauthorized();
  // GitLab handed blocked users their token (which then failed everywhere); Labrador refuses (README row 43).
  if (user.state !== 'active') throw unauthorized();
  if (user.two_factor_enabled === 1) {
    throw apiError(
      401,
      '401 Unauthorized. You have 2FA enabled. Please use a personal access token to access the API',
    );
  }
  return recordSignIn(db, user, now());
}
