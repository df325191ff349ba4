// One limiter for every place a password is checked: the sign-in form, the API's POST /session and git
// over HTTP's basic auth. An address with SIGN_IN_LIMIT.maxFailures wrong passwords within windowMs is
// refused for banMs without its password being checked (GitLab 8.13's Rack::Attack fail2ban banned for
// an hour; a shorter ban is enough to make guessing useless and keeps a mistyping owner's wait short).
// Only the address is limited, never the account: a stranger's guesses cannot lock the owner out, and a
// correct password from an address that has not failed is always checked. The state lives in the
// database, so several processes count an address's failures together; a ban always ends.
import type { Deps } from '../../deps.ts';
import {
  deleteEndedBans,
  findBanUntil,
  insertFailureAndCount,
  upsertBan,
} from '../../db/repositories/sign-in-limits.ts';
import { deleteExpiredWebSessions } from '../../db/repositories/web-sessions.ts';

const SIGN_IN_LIMIT = { maxFailures: 10, windowMs: 60_000, banMs: 15 * 60_000 };

/** The address may not try a password before `until`. */
export class SignInBanned extends Error {
  constructor(readonly until: Date) {
    super('Too many failed sign-ins from this address; retry later');
  }
  /** Whole seconds left, for Retry-After. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.until.getTime() - Date.now()) / 1000));
  }
}

/** Throws SignInBanned while the address is banned; one indexed read otherwise. */
export async function assertNotBanned(deps: Deps, address: string): Promise<void> {
  const until = await findBanUntil(deps.db.kysely, address, new Date().toISOString());
  if (until) throw new SignInBanned(new Date(until));
}

/** Counts a wrong password from `address`; the failure that reaches the limit starts a ban. */
export async function recordSignInFailure(deps: Deps, address: string): Promise<void> {
  const at = Date.now();
  await deps.db.kysely.transaction().execute(async (trx) => {
    const since = new Date(at - SIGN_IN_LIMIT.windowMs).toISOString();
    const count = await insertFailureAndCount(trx, address, new Date(at).toISOString(), since);
    if (count >= SIGN_IN_LIMIT.maxFailures) {
      await upsertBan(trx, address, new Date(at + SIGN_IN_LIMIT.banMs).toISOString());
      // Housekeeping rides on the rare write: bans that ended and sessions that expired.
      const nowText = new Date(at).toISOString();
      await deleteEndedBans(trx, nowText);
      await deleteExpiredWebSessions(trx, nowText);
    }
  });
}
