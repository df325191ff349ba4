// StuckCiBuildsWorker's rule: a pending or running build that has not moved for a day is dropped to
// `failed` (a runner that vanished mid-build, a build no runner ever took). The drop goes through the CI
// state machine, so the pipeline follows and build and pipeline hooks fire as for any failure.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { findBuild } from '../../db/repositories/builds.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { stuckBuilds, type StuckBuild } from '../../db/repositories/stuck-builds.ts';
import { openCiTransaction } from './ci-announcements.ts';
import { applyBuildEvent } from './pipeline-processing.ts';

const BUILD_STUCK_TIMEOUT_MS = 24 * 60 * 60 * 1000;
const BATCH = 50;

/** Drops one build if it is still stuck (another process or the runner may have moved it meanwhile). */
async function dropIfStuck(deps: Deps, id: number, before: string): Promise<boolean> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const build = await findBuild(trx, id);
    if (!build || (build.status !== 'pending' && build.status !== 'running') || build.updated_at >= before) {
      return false;
    }
    const record = await findProjectRecordById(trx, build.project_id);
    if (!record) return false;
    const ctx = await openCiTransaction(trx, deps.config, record, now());
    return (await applyBuildEvent(ctx, build, 'drop')) !== undefined;
  });
}

/**
 * One sweep as of `at`: every build pending or running and untouched since a day before `at`, read in
 * batches along the index, each dropped in its own transaction. Answers how many it dropped.
 */
export async function dropStuckBuilds(
  deps: Deps,
  at: Date,
  onError: (error: unknown, buildId: number) => void,
  stopped: () => boolean = () => false,
): Promise<number> {
  const before = new Date(at.getTime() - BUILD_STUCK_TIMEOUT_MS).toISOString();
  let dropped = 0;
  for (const status of ['running', 'pending'] as const) {
    let after: StuckBuild | undefined;
    while (!stopped()) {
      const batch = await stuckBuilds(deps.db.kysely, status, before, after, BATCH);
      for (const build of batch) {
        try {
          if (await dropIfStuck(deps, build.id, before)) dropped += 1;
        } catch (error) {
          onError(error, build.id);
        }
      }
      if (batch.length < BATCH) break;
      after = batch.at(-1);
    }
  }
  return dropped;
}
