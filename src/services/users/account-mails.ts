// Mails about one's own account (GitLab 8.13's Notify#new_user_email and #new_ssh_key_email), queued in
// the transaction of the change: an account an administrator made (with a link to set a password), a
// new SSH key.
import type { Deps } from '../../deps.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { mailEnabled, queueMails } from '../mail/mail-outbox.ts';
import { newResetLink } from './password-reset.ts';
import type { Executor, KeyRow, UserRow } from '../../db/types.ts';

export async function mailWelcome(trx: Executor, deps: Deps, user: UserRow): Promise<void> {
  // Without mail nobody could receive the link: make none.
  if (!mailEnabled(deps)) return;
  const { id, link } = await newResetLink(trx, deps, user);
  await queueMails(trx, deps, `welcome-${id}`, [user], () => ({
    subject: 'Account was created for you',
    paragraphs: [
      `Hi ${user.name}!`,
      `An administrator created an account for you on ${deps.config.externalUrl}.`,
      `Your username is ${user.username}.`,
      `Set a password within 2 days: ${link}`,
    ],
    url: `${deps.config.externalUrl}/users/sign_in`,
  }));
}

export async function mailNewKey(trx: Executor, deps: Deps, key: KeyRow): Promise<void> {
  if (!mailEnabled(deps)) return;
  const user = key.user_id === null ? undefined : await findUserById(trx, key.user_id);
  if (!user || user.state !== 'active') return;
  await queueMails(trx, deps, `ssh-key-${key.id}`, [user], () => ({
    subject: 'SSH key was added to your account',
    paragraphs: [
      `Hi ${user.name}!`,
      `A new public SSH key was added to your account: ${key.title} (${key.fingerprint}).`,
      'If it was not you, remove the key at once and change your password.',
    ],
    url: `${deps.config.externalUrl}/profile/keys`,
  }));
}
