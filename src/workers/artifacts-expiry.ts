// Runs the expired-artifacts sweep periodically in every process (each sweep is safe to run twice at once:
// a build's row is cleared by exactly one of them). drain() sweeps now and waits (tests).
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { removeExpiredArtifacts } from '../services/artifacts-expiry.ts';
import type { Worker } from './worker.ts';

/** GitLab swept hourly; artifacts live days or weeks, so a few minutes late costs nothing. */
const SWEEP_EVERY_MS = 15 * 60 * 1000;

export class ArtifactsExpiryWorker implements Worker {
  readonly name = 'expired artifacts';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private closed = false;

  constructor(
    private readonly deps: Deps,
    private readonly log: FastifyBaseLogger,
    private readonly everyMs = SWEEP_EVERY_MS,
  ) {}

  start(): void {
    if (this.closed || this.timer) return;
    this.timer = setInterval(() => {
      this.sweep().catch((error: unknown) =>
        this.log.error({ err: error }, 'expired artifacts sweep failed'),
      );
    }, this.everyMs);
    this.timer.unref();
  }

  /** Sweeps now (after a sweep in progress, if any); answers how many archives were removed. */
  async drain(): Promise<number> {
    await this.running?.catch(() => 0);
    return this.sweep();
  }

  private sweep(): Promise<number> {
    if (this.running) return this.running;
    this.running = removeExpiredArtifacts(this.deps).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => 0);
  }
}
