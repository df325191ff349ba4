// The mail every change of a password sends its owner (Devise's send_password_change_notification): after
// a reset link, on the profile page, by an administrator (pages or API) and by the admin command.
import type { Deps } from '../../deps.ts';
import type { Executor, UserRow } from '../../db/types.ts';
import { queueMails } from '../mail/mail-outbox.ts';

/** Queued in the transaction that changed the password; `key` makes a retried change mail once. */
export function passwordChangedMail(trx: Executor, deps: Deps, user: UserRow, key: string) {
  return queueMails(trx, deps, key, [user], () => ({
    subject: 'Password changed',
    paragraphs: [
      `Hello, ${user.name}!`,
      `The password of your account ${user.username} was changed just now.`,
      'If you did not do this, reset it at once and tell your administrator.',
    ],
    url: `${deps.config.externalUrl}/users/password/new`,
  }));
}
