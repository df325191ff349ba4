// The runner's loop: ask for a build whenever a slot is free (up to the concurrency), right away after
// getting one, backing off while there is nothing to do or the server cannot be reached; run each build
// on the shell executor; log one line per build taken and finished. stop() ends running builds (they are
// reported failed) and returns once they are.
import { BuildRun, type BuildSettings } from './build.ts';
import { RunnerRejectedError } from './client.ts';
import type { Job } from './job.ts';

export interface PollSettings {
  concurrency: number;
  /** The first wait after "nothing to do"; each further one is longer, up to maxPollMs. */
  minPollMs: number;
  maxPollMs: number;
}

export type Log = (line: string) => void;

export class Runner {
  private readonly running = new Map<number, BuildRun>();
  private stopping = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly build: BuildSettings,
    private readonly poll: PollSettings,
    private readonly log: Log,
  ) {}

  /** Polls until stop(); throws RunnerRejectedError when the server no longer knows this runner. */
  async run(): Promise<void> {
    let delay = this.poll.minPollMs;
    let unreachable = false;
    while (!this.stopping) {
      if (this.running.size >= this.poll.concurrency) {
        await this.pause(this.poll.maxPollMs);
        continue;
      }
      let job: Job | null;
      try {
        job = await this.build.client.requestJob(this.build.runnerToken);
        if (unreachable) this.log(`the server answers again`);
        unreachable = false;
      } catch (error) {
        if (error instanceof RunnerRejectedError) throw error;
        if (!unreachable) this.log(`cannot ask for builds (${(error as Error).message}); trying again`);
        unreachable = true;
        job = null;
      }
      if (job) {
        delay = this.poll.minPollMs;
        this.start(job);
        continue;
      }
      await this.pause(delay);
      delay = Math.min(Math.round(delay * 1.5), this.poll.maxPollMs);
    }
  }

  /** Waits `ms`, or less when a build finishes or the runner stops. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(finish, ms);
      function finish() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = finish;
    });
  }

  private start(job: Job): void {
    const run = new BuildRun(job, this.build);
    this.running.set(job.id, run);
    const began = Date.now();
    const what = `build ${job.id} (project ${job.project_id} ${job.project_name}, job ${job.name}, ${job.ref} ${job.sha.slice(0, 8)})`;
    this.log(`${what} taken`);
    void run
      .run()
      .catch((error: unknown) => {
        this.log(`${what} broke the runner: ${(error as Error).stack ?? String(error)}`);
        return 'failed' as const;
      })
      .then((outcome) => {
        this.running.delete(job.id);
        this.log(`${what} ${outcome} in ${((Date.now() - began) / 1000).toFixed(1)} s`);
        this.wake?.();
      });
  }

  /** Stops asking, ends the running builds and waits until they are reported. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    const finishing = [...this.running.values()];
    for (const run of finishing) run.interrupt('stopping');
    const deadline = Date.now() + 15_000;
    while (this.running.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
