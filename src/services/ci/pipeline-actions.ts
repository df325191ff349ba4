// What people do to a whole pipeline through API v3 (GitLab 8.13's Pipeline#retry_failed and
// #cancel_running): retry its failed builds, cancel its pending and running ones.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { reloaded } from '../../errors.ts';
import { latestBuildsIn } from '../../db/repositories/builds.ts';
import { findPipeline } from '../../db/repositories/pipelines.ts';
import { isRetryable } from '../../policies/ci.ts';
import { cancelBuild } from './builds.ts';
import { retryInTransaction } from './build-actions.ts';
import { openCiTransaction } from './ci-announcements.ts';
import type { CiPipelineRow, ProjectRecord } from '../../db/types.ts';

/** Retries the newest build of every job that failed, in one transaction; answers the pipeline after. */
export async function retryPipeline(
  deps: Deps,
  record: ProjectRecord,
  pipeline: CiPipelineRow,
  userId: number,
): Promise<CiPipelineRow> {
  const db = deps.db.kysely;
  await db.transaction().execute(async (trx) => {
    const failed = await latestBuildsIn(trx, pipeline.id, ['failed']);
    const retryable = failed.filter((build) => isRetryable(build, record.project));
    if (retryable.length === 0) return;
    const ctx = await openCiTransaction(trx, deps.config.externalUrl, record, now());
    for (const build of retryable) await retryInTransaction(ctx, build, userId);
  });
  return reloaded(await findPipeline(db, pipeline.id));
}

/**
 * Cancels every pending and running build of the newest ones (each with its hooks; a build that finished
 * meanwhile stays as it is); later stages are then skipped. Answers the pipeline after.
 */
export async function cancelPipeline(deps: Deps, pipeline: CiPipelineRow): Promise<CiPipelineRow> {
  const db = deps.db.kysely;
  const active = await latestBuildsIn(db, pipeline.id, ['pending', 'running']);
  for (const build of active) await cancelBuild(deps, build.id);
  return reloaded(await findPipeline(db, pipeline.id));
}
