// What people do to builds through API v3: retry (a new build of the same job, the pipeline reopens),
// play a manual job, erase (artifacts and trace go, who and when are recorded), keep artifacts from
// expiring. Status changes run through the CI state machine (pipeline-processing.ts) in one transaction
// with their build and pipeline hooks.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { badRequest, forbidden, notFound, reloaded } from '../../errors.ts';
import { friendlyToken } from '../../lib/tokens.ts';
import {
  findBuild,
  insertBuilds,
  reopenSkippedAfterStage,
  updateBuild,
} from '../../db/repositories/builds.ts';
import { findPipeline } from '../../db/repositories/pipelines.ts';
import { isPlayable, isRetryable } from '../../policies/ci.ts';
import { hasLiveArtifacts } from '../../ci/artifacts.ts';
import { removeArtifacts } from '../../storage/artifacts.ts';
import { removeBuildReports } from './builds.ts';
import { removeTrace, tracePath } from '../../storage/traces.ts';
import { isCompleted } from '../../ci/status.ts';
import { announceBuild, openCiTransaction, type CiTransaction } from './ci-announcements.ts';
import { applyBuildEvent, processPipeline } from './pipeline-processing.ts';
import type { CiBuildRow, ProjectRecord } from '../../db/types.ts';

/**
 * Ci::Build.retry inside a transaction: a new row for the same job (new id and token, the caller as its
 * user, nothing of the old run), enqueued at once; the skipped builds of later stages go back to
 * created so they run again after it. The old row stays as it was.
 */
export async function retryInTransaction(
  ctx: CiTransaction,
  build: CiBuildRow,
  userId: number | null,
): Promise<CiBuildRow> {
  const [copy] = await insertBuilds(ctx.trx, [
    {
      project_id: build.project_id,
      pipeline_id: build.pipeline_id,
      type: 'build',
      name: build.name,
      stage: build.stage,
      stage_idx: build.stage_idx,
      status: 'created',
      ref: build.ref,
      tag: build.tag,
      commands: build.commands,
      options: build.options,
      yaml_variables: build.yaml_variables,
      tag_list: build.tag_list,
      allow_failure: build.allow_failure,
      when: build.when,
      environment: build.environment,
      token: friendlyToken(),
      user_id: userId,
      trigger_request_id: build.trigger_request_id,
      created_at: ctx.at,
      updated_at: ctx.at,
    },
  ]);
  const moved = (await applyBuildEvent(ctx, copy!, 'enqueue'))!;
  // GitLab announced a build when it was created (already enqueued).
  await announceBuild(ctx, moved.pipeline, moved.build);
  if (build.stage_idx !== null) {
    await reopenSkippedAfterStage(ctx.trx, build.pipeline_id, build.stage_idx, ctx.at);
    await processPipeline(ctx, (await findPipeline(ctx.trx, build.pipeline_id))!);
  }
  return moved.build;
}

/** POST …/retry: 403 `Build is not retryable` unless finished with something to run; answers the new build. */
export async function retryBuild(
  deps: Deps,
  record: ProjectRecord,
  build: CiBuildRow,
  userId: number,
): Promise<CiBuildRow> {
  if (!isRetryable(build, record.project)) throw forbidden('Build is not retryable');
  return deps.db.kysely.transaction().execute(async (trx) => {
    const ctx = await openCiTransaction(trx, deps.config, record, now());
    return retryInTransaction(ctx, build, userId);
  });
}

/**
 * POST …/play: a manual job still waiting is enqueued with the caller as its user; one that moved on
 * meanwhile is retried instead (GitLab's Build#play). 400 `Unplayable Build` for anything else.
 */
export async function playBuild(
  deps: Deps,
  record: ProjectRecord,
  build: CiBuildRow,
  userId: number,
): Promise<CiBuildRow> {
  if (!isPlayable(build, record.project)) throw badRequest('Unplayable Build');
  return deps.db.kysely.transaction().execute(async (trx) => {
    const ctx = await openCiTransaction(trx, deps.config, record, now());
    return playInTransaction(ctx, build, userId);
  });
}

/** Build#play inside a caller's transaction (an environment's stop plays its on_stop job so). */
export async function playInTransaction(
  ctx: CiTransaction,
  build: CiBuildRow,
  userId: number,
): Promise<CiBuildRow> {
  const moved = await applyBuildEvent(ctx, build, 'enqueue', { user_id: userId });
  return moved ? moved.build : retryInTransaction(ctx, build, userId);
}

/**
 * POST …/erase: artifacts and trace are removed. A finished build is marked erased (by whom, when), and
 * its runner may no longer report on it; an unfinished one only loses what it had so far, so its runner
 * can go on. Answers the build as it is afterwards.
 */
export async function eraseBuild(deps: Deps, build: CiBuildRow, userId: number): Promise<CiBuildRow> {
  const at = now();
  const finished = isCompleted(build.status);
  await updateBuild(deps.db.kysely, build.id, {
    artifacts_file: null,
    artifacts_size: null,
    artifacts_metadata: null,
    artifacts_expire_at: null,
    ...(finished ? { erased_by_id: userId, erased_at: at } : {}),
    updated_at: at,
  });
  await removeArtifacts(deps.config.dataDir, build);
  await removeBuildReports(deps, build);
  await removeTrace(tracePath(deps.config.dataDir, build));
  return reloaded(await findBuild(deps.db.kysely, build.id));
}

/** POST …/artifacts/keep: live artifacts no longer expire; 404 without any. */
export async function keepArtifacts(deps: Deps, build: CiBuildRow): Promise<CiBuildRow> {
  if (!hasLiveArtifacts(build, now())) throw notFound();
  await updateBuild(deps.db.kysely, build.id, { artifacts_expire_at: null, updated_at: now() });
  return reloaded(await findBuild(deps.db.kysely, build.id));
}

/**
 * v4's DELETE …/jobs/:id/artifacts: the archive and the reports go, the trace stays; 404 without live
 * artifacts.
 */
export async function deleteArtifacts(deps: Deps, build: CiBuildRow): Promise<void> {
  if (!hasLiveArtifacts(build, now())) throw notFound();
  await updateBuild(deps.db.kysely, build.id, {
    artifacts_file: null,
    artifacts_size: null,
    artifacts_metadata: null,
    artifacts_expire_at: null,
    updated_at: now(),
  });
  await removeArtifacts(deps.config.dataDir, build);
  await removeBuildReports(deps, build);
}
