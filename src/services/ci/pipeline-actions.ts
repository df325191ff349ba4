// What people do to a whole pipeline through API v3 (GitLab 8.13's Pipeline#retry_failed and
// #cancel_running): retry its failed builds, cancel its pending and running ones; and v4's: run one for
// a ref, delete one.
import type { PipelineVariableInput } from '../../db/repositories/pipeline-variables.ts';
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { apiError, reloaded } from '../../errors.ts';
import { latestBuildsIn, pipelineRows } from '../../db/repositories/builds.ts';
import { findPipeline, removePipeline } from '../../db/repositories/pipelines.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { removeArtifacts, removeReports } from '../../storage/artifacts.ts';
import { removeTrace, tracePath } from '../../storage/traces.ts';
import { CI_FILE_MAX_BYTES, createPipeline, planPipeline } from './pipelines.ts';
import { projectOpener } from './include-projects.ts';
import { resolveTriggerRef } from './triggers.ts';
import { BLANK_SHA, type PipelineSource } from '../../domain/types.ts';
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
    const ctx = await openCiTransaction(trx, deps.config, record, now());
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

/**
 * Runs a pipeline for a branch or tag on a person's behalf (v4's POST /projects/:id/pipeline, source
 * `api`), as a push of that commit would: 400 `Reference not found` for an unknown ref, 400 `No builds
 * created` when the commit makes none. The pipeline, its builds and their hooks land in one transaction.
 */
export async function createRequestedPipeline(
  deps: Deps,
  record: ProjectRecord,
  userId: number,
  ref: string,
  source: PipelineSource,
  variables: PipelineVariableInput[] = [],
): Promise<CiPipelineRow> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const target = await resolveTriggerRef(repoPath, ref);
  if (!target) throw apiError(400, 'Reference not found');
  const planned = await planPipeline({
    repoPath,
    record,
    ...target,
    beforeSha: BLANK_SHA,
    source,
    variables: variables.map((v) => [v.key, v.value]),
    openProject: projectOpener(deps, { userId }, CI_FILE_MAX_BYTES),
  });
  if (!planned) throw apiError(400, 'No builds created');
  const plan = { ...planned, variables };
  const at = now();
  return deps.db.kysely
    .transaction()
    .execute((trx) => createPipeline(trx, deps.config, record, userId, plan, at));
}

/**
 * Deletes the pipeline with its builds (the rows cascade in one statement), then their traces and
 * artifacts from disk: files of rows already gone, so a crash between leaves only unreferenced files.
 */
export async function deletePipeline(deps: Deps, pipeline: CiPipelineRow): Promise<void> {
  const builds = await deps.db.kysely.transaction().execute(async (trx) => {
    const rows = await pipelineRows(trx, pipeline.id);
    await removePipeline(trx, pipeline.id);
    return rows;
  });
  for (const build of builds) {
    await removeTrace(tracePath(deps.config.dataDir, build));
    await removeArtifacts(deps.config.dataDir, build);
    await removeReports(deps.config.dataDir, build);
  }
}
