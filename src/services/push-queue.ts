// Push processing that runs after `git push` has its answer: the events, hook deliveries and pipelines
// of a push (processPush) are recorded in the background, in push order per project (so events keep
// the order of the pushes), while the client goes on. The push's row stays pending until then, so a
// crash in between leaves it to recoverPendingPushes at the next start. API requests wait for what was
// queued before them (caughtUp), so in one process a push's effects are visible to the next request;
// drain() waits for all of it (server shutdown).
import type { FastifyBaseLogger } from 'fastify';

export class PushQueue {
  private readonly tails = new Map<number, Promise<void>>();
  private readonly running = new Set<Promise<void>>();

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
   * Resolves once the tasks enqueued so far have finished (not those enqueued meanwhile): an API request
   * waits for this, so a client that pushed and then asks for events or pipelines sees them.
   */
  async caughtUp(): Promise<void> {
    if (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Resolves once every task enqueued so far (and any they lead to) has finished. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
