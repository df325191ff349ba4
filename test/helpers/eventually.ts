// A change committed by another server process is seen by this one at once on SQLite (every cached read
// asks the database whether anything was committed since) and on PostgreSQL once the change notification
// has arrived: tests of such changes poll, bounded by a deadline, on PostgreSQL only.
import type { TestApp, TestResponse } from './app.ts';

const NOTIFICATION_DEADLINE_MS = 10_000;

/** The first answer of `ask` that `done` accepts, or the last one at the deadline. */
export async function eventually(
  t: TestApp,
  ask: () => Promise<TestResponse>,
  done: (r: TestResponse) => boolean,
): Promise<TestResponse> {
  const deadline = Date.now() + (t.server.deps.db.dialect === 'sqlite' ? 0 : NOTIFICATION_DEADLINE_MS);
  for (;;) {
    const response = await ask();
    if (done(response) || Date.now() >= deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
