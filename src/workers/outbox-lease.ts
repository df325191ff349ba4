// What the outbox workers (hooks, mails) write when they claim rows: who they are and how long the claim
// holds. A claim never reported back (kill -9) is due again for any worker when its lease ends.
import crypto from 'node:crypto';
import os from 'node:os';
import type { ClaimOptions } from '../db/repositories/outbox-claims.ts';

/** Extra lease beyond the longest an attempt may take, before another worker may take a claim over. */
const LEASE_MARGIN_MS = 30_000;

/** This process's worker id in `locked_by`: host, pid and a random part, so no two servers share one. */
export function outboxWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
}

/** A claim made at `at` by `workerId` whose work may take `attemptMs`. */
export function leaseAt(workerId: string, at: Date, attemptMs: number): ClaimOptions {
  return {
    workerId,
    now: at.toISOString(),
    leaseUntil: new Date(at.getTime() + attemptMs + LEASE_MARGIN_MS).toISOString(),
  };
}
