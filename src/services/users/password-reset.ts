// Forgot password (Devise's recoverable as GitLab 8.13 set it up): the form mails a one-time link that is
// valid for 2 days; the answer is the same whether or not the address belongs to anyone, and one address
// gets at most RESET_LIMIT links an hour (counted in the sign-in limiter's table, so every process counts
// together). Setting the password through the link uses it, ends the user's other links and every web
// session, and mails the user that the password changed (as every other change of a password does).
import crypto from 'node:crypto';
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { findUserByEmail, findUserById, updateUser } from '../../db/repositories/users.ts';
import { insertFailureAndCount } from '../../db/repositories/sign-in-limits.ts';
import {
  endResetsOfUser,
  findLiveReset,
  insertPasswordReset,
  useReset,
} from '../../db/repositories/password-resets.ts';
import { deleteWebSessionsOfUser } from '../../db/repositories/web-sessions.ts';
import { queueMails } from '../mail/mail-outbox.ts';
import { passwordProblem } from './account-recovery.ts';
import { hashPassword } from './passwords.ts';
import { passwordChangedMail } from './password-mails.ts';
import type { Executor, UserRow } from '../../db/types.ts';

/** Devise's reset_password_within in GitLab 8.13's config: 2 days. */
const RESET_VALID_MS = 2 * 24 * 60 * 60 * 1000;
const RESET_LIMIT = { perAddress: 3, windowMs: 60 * 60 * 1000 };

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');

/** A live link for the user (2 days), in the caller's transaction: its row id and URL. */
export async function newResetLink(trx: Executor, deps: Deps, user: UserRow) {
  const token = crypto.randomBytes(24).toString('base64url');
  const at = Date.now();
  const id = await insertPasswordReset(trx, {
    userId: user.id,
    tokenHash: hashOf(token),
    expiresAt: new Date(at + RESET_VALID_MS).toISOString(),
    at: new Date(at).toISOString(),
  });
  return { id, link: `${deps.config.externalUrl}/users/password/edit?reset_password_token=${token}` };
}

/** POST /users/password: mails a link when the address is a confirmed user's; answers nothing either way. */
export async function requestPasswordReset(deps: Deps, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  if (address === '') return;
  await deps.db.kysely.transaction().execute(async (trx) => {
    const at = Date.now();
    const count = await insertFailureAndCount(
      trx,
      `password-reset:${address}`,
      new Date(at).toISOString(),
      new Date(at - RESET_LIMIT.windowMs).toISOString(),
    );
    if (count > RESET_LIMIT.perAddress) return;
    const user = await findUserByEmail(trx, address);
    if (!user || user.state !== 'active') return;
    const { id, link } = await newResetLink(trx, deps, user);
    await queueMails(trx, deps, `password-reset-${id}`, [user], () => ({
      subject: 'Reset password instructions',
      paragraphs: [
        `Hello, ${user.name}!`,
        'Someone, hopefully you, has requested to reset the password for your account.',
        `Follow this link within 2 days to set a new one: ${link}`,
        'If you did not request this, ignore this mail: your password stays as it is.',
      ],
    }));
  });
}

/** Whether a reset link is live (the edit form shows only for one). */
export async function resetLinkIsLive(deps: Deps, token: string): Promise<boolean> {
  return token !== '' && (await findLiveReset(deps.db.kysely, hashOf(token), now())) !== undefined;
}

export type ResetOutcome = 'done' | 'expired' | { problem: string };

/** PUT /users/password: sets the password once through a live link. */
export async function resetPasswordWithToken(
  deps: Deps,
  token: string,
  password: string,
): Promise<ResetOutcome> {
  const problem = passwordProblem(password);
  if (problem) return { problem };
  const encrypted = await hashPassword(password, deps.config.passwordHashCost);
  return deps.db.kysely.transaction().execute(async (trx) => {
    const at = now();
    const reset = token === '' ? undefined : await findLiveReset(trx, hashOf(token), at);
    if (!reset || !(await useReset(trx, reset.id, at))) return 'expired';
    const user = await findUserById(trx, reset.user_id);
    if (!user || user.state !== 'active') return 'expired';
    await updateUser(trx, user.id, { encrypted_password: encrypted, updated_at: at });
    await endResetsOfUser(trx, user.id, at);
    await deleteWebSessionsOfUser(trx, user.id);
    await passwordChangedMail(trx, deps, user, `password-changed-${reset.id}`);
    return 'done';
  });
}
