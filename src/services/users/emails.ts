// Secondary emails of users. An address is unique across every user's primary and secondary emails, the
// owner's own primary included. Each write is one transaction.
import type { Deps } from '../../deps.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { now } from '../../lib/clock.ts';
import { deleteEmailOfUser, insertEmail } from '../../db/repositories/emails.ts';
import { isEmailTaken } from '../../db/repositories/users.ts';
import { ValidationErrors, validationFailed } from '../../errors.ts';
import { EMAIL_MAXIMUM, isEmailFormat, normalizeEmail } from './user-validation.ts';
import type { EmailRow } from '../../db/types.ts';

/** Adds a secondary email; a validation failure is GitLab's hash, `{"message":{"email":["is invalid"]}}`. */
export async function createEmail(deps: Deps, userId: number, input: string): Promise<EmailRow> {
  const email = normalizeEmail(input);
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      const errors = new ValidationErrors();
      if (email === '') errors.add('email', "can't be blank");
      else if ([...email].length > EMAIL_MAXIMUM) {
        errors.add('email', `is too long (maximum is ${EMAIL_MAXIMUM} characters)`);
      } else if (!isEmailFormat(email)) errors.add('email', 'is invalid');
      else if (await isEmailTaken(trx, email)) errors.add('email', 'has already been taken');
      errors.throwIfAny();
      return insertEmail(trx, userId, email, now());
    });
  } catch (error) {
    // Two requests adding the same address at once: the unique index on lower(email) decides.
    if (isUniqueViolation(error)) throw validationFailed({ email: ['has already been taken'] });
    throw error;
  }
}

/** Removes a secondary email of the user; undefined when there was none. */
export function destroyEmail(deps: Deps, userId: number, emailId: number): Promise<EmailRow | undefined> {
  return deleteEmailOfUser(deps.db.kysely, userId, emailId);
}
