// Push processing that runs after `git push` has its answer: the events, hook deliveries and pipelines
// of a push (processPush) are recorded in the background, in push order per project (so events keep
// the order of the pushes), while the client goes on. The push's row stays pending until then, so a
// crash in between leaves it to recoverPendingPushes at the next start. API requests wait for what was
// queued before them (caughtUp), so in one process a push's effects are visible to the next request;
// drain() waits for all of it (server shutdown). Repository housekeeping (git gc --auto) follows a push's
// processing the same way, but nothing but drain() waits for it.
import type { FastifyBaseLogger } from 'fastify';

export class PushQueue {
  private readonly tails = new Map<number, Promise<void>>();
  private readonly running = new Set<Promise<void>>();
  /** At most one housekeeping task per project, queued or running: a later one would find nothing new. */
  private readonly housekeeping = new Map<number, Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Runs `task` after the project's earlier tasks; a failure is logged (the row stays pending). */
  enqueue(projectId: number, task: () => Promise<unknown>, context: Record<string, unknown> = {}): void {
    const run = (this.tails.get(projectId) ?? Promise.resolve()).then(task).then(
      () => {},
      (error) => this.log.error({ err: error, ...context }, 'push processing failed'),
    );
    this.tails.set(projectId, run);
    this.running.add(run);
    void run.finally(() => {
      this.running.delete(run);
      if (this.tails.get(projectId) === run) this.tails.delete(projectId);
    });
  }

  /**
   * Runs `task` after the project's tasks enqueued so far, unless housekeeping is already queued or
   * running for the project. Requests do not wait for it (caughtUp); a failure is logged.
   */
  enqueueHousekeeping(projectId: number, task: () => Promise<unknown>): void {
    if (this.housekeeping.has(projectId)) return;
    const run = (this.tails.get(projectId) ?? Promise.resolve()).then(task).then(
      () => {},
      (error) => this.log.warn({ err: error, projectId }, 'repository housekeeping failed'),
    );
    this.housekeeping.set(projectId, run);
    void run.finally(() => this.housekeeping.delete(projectId));
  }

  /**
   * Resolves once the tasks enqueued so far have finished (not those enqueued meanwhile): an API request
   * waits for this, so a client that pushed and then asks for events or pipelines sees them.
   */
  async caughtUp(): Promise<void> {
    if (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Resolves once every task enqueued so far (and any they lead to), housekeeping too, has finished. */
  async drain(): Promise<void> {
    while (this.running.size > 0 || this.housekeeping.size > 0) {
      await Promise.all([...this.running, ...this.housekeeping.values()]);
    }
  }
}
