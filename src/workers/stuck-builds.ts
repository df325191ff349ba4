// The periodic stuck-build sweep (GitLab's StuckCiBuildsWorker ran it daily; Labrador looks hourly, so a
// build is dropped at most an hour after its day is up). Every process runs one; sweeps of several
// processes on one database overlap harmlessly, since each drop only happens if the build is still stuck.
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { dropStuckBuilds } from '../services/stuck-builds.ts';
import type { Worker } from './worker.ts';

const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** The first sweep waits a little, so a start-up is not slowed by it. */
const FIRST_SWEEP_MS = 60 * 1000;

export class StuckBuildsWorker implements Worker {
  readonly name = 'stuck builds';
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  private closed = false;

  constructor(
    private readonly deps: Deps,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.closed || this.timer) return;
    this.schedule(FIRST_SWEEP_MS);
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.sweeping?.catch(() => 0);
  }

  /** Runs a sweep now (tests pass a later `at` to look ahead in time); answers how many builds it dropped. */
  async drain(at: Date = new Date()): Promise<number> {
    if (this.sweeping) await this.sweeping.catch(() => 0);
    return this.sweep(at);
  }

  private schedule(delay: number): void {
    if (this.closed) return;
    this.timer = setTimeout(async () => {
      await this.sweep(new Date()).catch((error) =>
        this.log.error({ err: error }, 'stuck builds: sweep failed'),
      );
      this.schedule(SWEEP_EVERY_MS);
    }, delay);
    this.timer.unref();
  }

  private sweep(at: Date): Promise<number> {
    this.sweeping = dropStuckBuilds(
      this.deps,
      at,
      (error, buildId) => this.log.error({ err: error, build: buildId }, 'stuck builds: drop failed'),
      () => this.closed,
    ).then((dropped) => {
      if (dropped > 0) this.log.info({ dropped }, 'stuck builds dropped to failed');
      return dropped;
    });
    const sweeping = this.sweeping;
    return sweeping.finally(() => {
      if (this.sweeping === sweeping) this.sweeping = undefined;
    });
  }
}
