// CI's two clocks. A `when: delayed` job waiting as scheduled becomes pending once its scheduled_at
// has come. A running job past its timeout (its `timeout:`, else the project's) is failed with
// `job_execution_timeout`, whatever its runner does: the runner ends its own processes at the same
// time, and if it never reports (gone, or a runner that ignores the timeout) the server does not wait
// for it. The failure goes through failBuild, so `retry:` and hooks follow as for any failure. Each drop
// is a compare-and-swap on the build's status, so processes sweeping at once drop it once.
import type { Deps } from '../../deps.ts';
import type { CiBuildRow } from '../../db/types.ts';
import { dueScheduledBuilds, findBuild } from '../../db/repositories/builds.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { overdueBuilds } from '../../db/repositories/stuck-builds.ts';
import { openCiTransaction, type CiTransaction } from './ci-announcements.ts';
import { failBuild } from './build-failures.ts';
import { applyBuildEvent } from './pipeline-processing.ts';

const BATCH = 50;

/** What one of the clocks picks, re-checks under the transaction and does to each job. */
interface Sweep {
  /** Up to `limit` ids of the jobs due as of `stamp`. */
  due: (db: Deps['db']['kysely'], stamp: string, limit: number) => Promise<{ id: number }[]>;
  /** Whether the job, read again inside the transaction, is still due (another process may have won). */
  stillDue: (build: CiBuildRow, stamp: string) => boolean;
  /** Moves it; answers whether it moved. */
  move: (ctx: CiTransaction, build: CiBuildRow) => Promise<boolean>;
}

/** One sweep as of `at`, batch by batch, each job in its own transaction: answers how many moved. */
async function sweep(
  deps: Deps,
  at: Date,
  clock: Sweep,
  onError: (error: unknown, buildId: number) => void,
  stopped: () => boolean,
): Promise<number> {
  const stamp = at.toISOString();
  let total = 0;
  while (!stopped()) {
    const batch = await clock.due(deps.db.kysely, stamp, BATCH);
    let moved = 0;
    for (const { id } of batch) {
      try {
        const done = await deps.db.kysely.transaction().execute(async (trx) => {
          const build = await findBuild(trx, id);
          if (!build || !clock.stillDue(build, stamp)) return false;
          const record = await findProjectRecordById(trx, build.project_id);
          if (!record) return false;
          const ctx = await openCiTransaction(trx, deps.config, record, stamp);
          return clock.move(ctx, build);
        });
        if (done) moved += 1;
      } catch (error) {
        onError(error, id);
      }
    }
    total += moved;
    // A batch that moved nothing (each failed, or another process took them) ends the sweep.
    if (batch.length < BATCH || moved === 0) break;
  }
  return total;
}

const overdue: Sweep = {
  due: overdueBuilds,
  stillDue: (build, stamp) => build.status === 'running' && !!build.timeout_at && build.timeout_at < stamp,
  move: async (ctx, build) => {
    const change = { failure_reason: 'job_execution_timeout', exit_code: null };
    return (await failBuild(ctx, build, change)) !== undefined;
  },
};

const scheduled: Sweep = {
  due: dueScheduledBuilds,
  stillDue: (build, stamp) =>
    build.status === 'scheduled' && !!build.scheduled_at && build.scheduled_at <= stamp,
  move: async (ctx, build) => (await applyBuildEvent(ctx, build, 'enqueue')) !== undefined,
};

/** One sweep as of `at`: answers how many jobs it failed. */
export function failOverdueBuilds(
  deps: Deps,
  at: Date,
  onError: (error: unknown, buildId: number) => void,
  stopped: () => boolean = () => false,
): Promise<number> {
  return sweep(deps, at, overdue, onError, stopped);
}

/** One sweep as of `at`: every scheduled job whose time has come is enqueued; answers how many. */
export function enqueueDueBuilds(
  deps: Deps,
  at: Date,
  onError: (error: unknown, buildId: number) => void,
  stopped: () => boolean = () => false,
): Promise<number> {
  return sweep(deps, at, scheduled, onError, stopped);
}
