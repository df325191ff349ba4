// Performs the merges owed to merge_when_build_succeeds (services/merge-requests/auto-merge.ts). It looks
// at start (what a crash left owed), when this process's CI writes owe one (told from inside the
// uncommitted transaction, so it looks again a little later when the first look finds nothing), and once
// a minute for what other processes owed. Looks of several processes may overlap: the merge's own lock
// lets one merge happen.
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { performOwedMerges } from '../services/merge-requests/auto-merge.ts';
import { onAutoMergeOwed } from '../services/merge-requests/merge-when-build-succeeds.ts';
import type { Worker } from './worker.ts';

const POLL_MS = 60_000;
/** After a wake, the looks that find nothing are repeated after these delays (the owing commit lands). */
const WAKE_DELAYS_MS = [20, 200, 1000, 3000];

export class AutoMergeWorker implements Worker {
  readonly name = 'merges when builds succeed';
  private timer: NodeJS.Timeout | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<number> | undefined;
  private closed = false;

  constructor(
    private readonly deps: Deps,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.closed || this.unsubscribe) return;
    this.unsubscribe = onAutoMergeOwed(() => this.wake(0));
    this.poll(0);
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    clearTimeout(this.wakeTimer);
    await this.running?.catch(() => 0);
  }

  /** Performs what is owed now, after a look in progress (tests). */
  async drain(): Promise<number> {
    await this.running?.catch(() => 0);
    return this.look();
  }

  private poll(delay: number): void {
    if (this.closed) return;
    this.timer = setTimeout(async () => {
      await this.look();
      this.poll(POLL_MS);
    }, delay);
    this.timer.unref();
  }

  private wake(attempt: number): void {
    if (this.closed || attempt >= WAKE_DELAYS_MS.length) return;
    clearTimeout(this.wakeTimer);
    this.wakeTimer = setTimeout(async () => {
      this.wakeTimer = undefined;
      if ((await this.look()) === 0) this.wake(attempt + 1);
    }, WAKE_DELAYS_MS[attempt]);
    this.wakeTimer.unref();
  }

  private look(): Promise<number> {
    if (this.running) return this.running;
    this.running = performOwedMerges(this.deps, () => this.closed)
      .catch((error: unknown) => {
        this.log.error({ err: error }, `${this.name}: look failed`);
        return 0;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
