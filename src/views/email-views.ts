// Secondary emails as the API shows them (the primary one is never listed). Lists are read whole.
import type { Deps } from '../deps.ts';
import { emailsOfUser, findEmailOfUser } from '../db/repositories/emails.ts';
import type { EmailRow } from '../db/types.ts';

export function userEmails(deps: Deps, userId: number): Promise<EmailRow[]> {
  return emailsOfUser(deps.db.kysely, userId);
}

/** One secondary email of the user; undefined when the user has none with that id. */
export function userEmail(deps: Deps, userId: number, emailId: number): Promise<EmailRow | undefined> {
  return findEmailOfUser(deps.db.kysely, userId, emailId);
}
