// Secondary emails as the API shows them (the primary one is never listed). Lists are not paginated.
import type { Deps } from '../deps.ts';
import { emailsOfUser, findEmailOfUser } from '../db/repositories/emails.ts';
import { presentEmail } from '../presenters/api-v3/email.ts';

export async function userEmails(deps: Deps, userId: number) {
  return (await emailsOfUser(deps.db.kysely, userId)).map(presentEmail);
}

/** One secondary email of the user; undefined when the user has none with that id. */
export async function userEmail(deps: Deps, userId: number, emailId: number) {
  const email = await findEmailOfUser(deps.db.kysely, userId, emailId);
  return email && presentEmail(email);
}
