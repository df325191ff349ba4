// Getting back into an account without the API (npm run admin -- reset-password / create-token): a new
// password, or a new private token that replaces the old one.
import type { Deps } from '../../deps.ts';
import type { Executor, UserRow } from '../../db/types.ts';
import { findUserByUsername, updateUser } from '../../db/repositories/users.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { now } from '../../lib/clock.ts';
import { hashPassword } from './passwords.ts';
import { passwordChangedMail } from './password-mails.ts';
import { friendlyToken } from '../../lib/tokens.ts';

/** The account an admin command names by username (case-insensitive), or undefined. */
export function findAccount(db: Executor, username: string): Promise<UserRow | undefined> {
  return findUserByUsername(db, username);
}

/** Devise's length rule, the same as the API's. Answers the problem, or undefined when acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < 8) return 'the password is too short (minimum is 8 characters)';
  if (length > 128) return 'the password is too long (maximum is 128 characters)';
  return undefined;
}

export async function resetPassword(deps: Deps, user: UserRow, password: string): Promise<void> {
  const problem = passwordProblem(password);
  if (problem) throw new Error(problem);
  const encrypted = await hashPassword(password, deps.config.passwordHashCost);
  const at = now();
  await deps.db.kysely.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, { encrypted_password: encrypted, updated_at: at });
    await passwordChangedMail(trx, deps, user, `password-changed-${user.id}-${at}`);
  });
}

/** A fresh private token for the user; the previous one stops working. */
export async function regeneratePrivateToken(deps: Deps, user: UserRow): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const token = friendlyToken();
    try {
      await updateUser(deps.db.kysely, user.id, { authentication_token: token, updated_at: now() });
      return token;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}
