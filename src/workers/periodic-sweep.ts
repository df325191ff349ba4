// A sweep that every process runs on a timer (expired artifacts, stuck builds): the first one a little
// after start, then one every period. Sweeps of several processes on one database may overlap, so each
// sweep must be safe to run twice at once. drain() sweeps now and waits (tests); stop() lets a sweep in
// progress finish.
import type { FastifyBaseLogger } from 'fastify';
import type { Worker } from './worker.ts';

export interface SweepSchedule {
  /** Shown in logs and in the graceful stop. */
  name: string;
  everyMs: number;
  /** The first sweep waits this long, so a start-up is not slowed by it. */
  firstAfterMs: number;
  /** One sweep as of `at`; answers how many things it changed. `stopping()` turns true on stop(). */
  sweep(at: Date, stopping: () => boolean): Promise<number>;
}

export class PeriodicSweep implements Worker {
  readonly name: string;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  private closed = false;

  constructor(
    private readonly schedule: SweepSchedule,
    private readonly log: FastifyBaseLogger,
  ) {
    this.name = schedule.name;
  }

  start(): void {
    if (this.closed || this.timer) return;
    this.after(this.schedule.firstAfterMs);
  }

  /** Sweeps now, after a sweep in progress if any (tests pass a later `at` to look ahead in time). */
  async drain(at: Date = new Date()): Promise<number> {
    await this.sweeping?.catch(() => 0);
    return this.sweep(at);
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.sweeping?.catch(() => 0);
  }

  private after(delay: number): void {
    if (this.closed) return;
    this.timer = setTimeout(async () => {
      await this.sweep(new Date()).catch((error: unknown) =>
        this.log.error({ err: error }, `${this.name}: sweep failed`),
      );
      this.after(this.schedule.everyMs);
    }, delay);
    this.timer.unref();
  }

  private sweep(at: Date): Promise<number> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = this.schedule
      .sweep(at, () => this.closed)
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }
}
