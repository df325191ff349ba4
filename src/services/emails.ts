// Secondary emails of users (reference/api-v3.md §5.3, §7.7). An address is unique across every
// user's primary and secondary emails, the owner's own primary included. Each write is one transaction.
import type { Deps } from '../deps.ts';
import { now, isUniqueViolation } from '../db/errors.ts';
import {
  deleteEmailOfUser,
  emailsOfUser,
  findEmailOfUser,
  insertEmail,
  type EmailRow,
} from '../db/repositories/emails.ts';
import { isEmailTaken } from '../db/repositories/users.ts';
import { ValidationErrors, validationFailed } from '../http/errors.ts';

/** Devise 4's email format, as GitLab's EmailValidator used it. */
const EMAIL_FORMAT = /^[^@\s]+@[^@\s]+$/;
/** Not a GitLab rule: a longer value could not be indexed on PostgreSQL (the column was a varchar(255)). */
const EMAIL_MAXIMUM = 255;

export function listEmails(deps: Deps, userId: number): Promise<EmailRow[]> {
  return emailsOfUser(deps.db.kysely, userId);
}

export function findEmail(deps: Deps, userId: number, emailId: number): Promise<EmailRow | undefined> {
  return findEmailOfUser(deps.db.kysely, userId, emailId);
}

/** Adds a secondary email; a validation failure is GitLab's hash with `failureStatus` (400, or 404 for admins). */
export async function createEmail(
  deps: Deps,
  userId: number,
  input: string,
  failureStatus = 400,
): Promise<EmailRow> {
  // GitLab downcased and stripped before validating.
  const email = input.toLowerCase().trim();
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      const errors = new ValidationErrors();
      if (email === '') errors.add('email', "can't be blank");
      else if ([...email].length > EMAIL_MAXIMUM)
        errors.add('email', 'is too long (maximum is 255 characters)');
      else if (!EMAIL_FORMAT.test(email) || email.includes('\0')) errors.add('email', 'is invalid');
      else if (await isEmailTaken(trx, email)) errors.add('email', 'has already been taken');
      errors.throwIfAny(failureStatus);
      return insertEmail(trx, { user_id: userId, email, created_at: now() });
    });
  } catch (error) {
    // Two requests adding the same address at once: the unique index on lower(email) decides.
    if (isUniqueViolation(error))
      throw validationFailed({ email: ['has already been taken'] }, failureStatus);
    throw error;
  }
}

/** Removes a secondary email of the user; undefined when there was none. */
export function destroyEmail(deps: Deps, userId: number, emailId: number): Promise<EmailRow | undefined> {
  return deps.db.kysely.transaction().execute(async (trx) => deleteEmailOfUser(trx, userId, emailId));
}
