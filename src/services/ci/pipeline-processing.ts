// The CI state machine inside a caller's transaction: a build event moves one build, then its pipeline
// is processed (stage gating, when the build finished) or only has its status recomputed, and the build
// and pipeline hooks of what changed go to the outbox in the same transaction.
import {
  latestBuildsForProcessing,
  latestStatusGroups,
  moveCreatedBuilds,
  moveCreatedBuildsById,
  runPeriods,
  transitionBuild,
  unscheduledBuilds,
  updateBuild,
  type StatusGroupRow,
} from '../../db/repositories/builds.ts';
import { parseDuration } from '../../ci/durations.ts';
import { parseOptions } from '../../ci/job-limits.ts';
import { findPipeline, lockPipeline, updatePipeline } from '../../db/repositories/pipelines.ts';
import {
  buildEvent,
  gatePipeline,
  isCompleted,
  pipelineStatusFrom,
  pipelineTransition,
  processDag,
  runningSeconds,
  type ProcessedBuild,
  type BuildEvent,
  type StageGroup,
} from '../../ci/status.ts';
import { announceBuild, announcePipeline, type CiTransaction } from './ci-announcements.ts';
import { recordJobEnvironment } from './environments.ts';
import { oweMergesForPipeline } from '../merge-requests/merge-when-build-succeeds.ts';
import type { CiBuildRow, CiPipelineRow } from '../../db/types.ts';
import type { CiBuildsTable } from '../../db/schema.ts';
import type { Updateable } from 'kysely';

interface Groups {
  all: StageGroup[];
  builds: StageGroup[];
}

function toGroups(rows: StatusGroupRow[]): Groups {
  const all: StageGroup[] = [];
  const builds: StageGroup[] = [];
  for (const row of rows) {
    const group: StageGroup = {
      stageIdx: row.stage_idx,
      status: row.status,
      allowFailure: Number(row.allow_failure) === 1,
      when: row.when,
      count: Number(row.count),
    };
    all.push(group);
    if (row.type === 'build') builds.push(group);
  }
  return { all, builds };
}

/** Moves the pipeline to the status its builds give, with GitLab's timestamps; hooks when it moved. */
async function settlePipeline(
  ctx: CiTransaction,
  pipeline: CiPipelineRow,
  groups: Groups,
): Promise<CiPipelineRow> {
  const computed = pipelineStatusFrom(groups.all, pipeline.yaml_errors !== null);
  const next = pipelineTransition(pipeline.status, computed);
  if (!next) return pipeline;
  const changes: Partial<CiPipelineRow> = { status: next, updated_at: ctx.at };
  if ((pipeline.status === 'created' || pipeline.status === 'pending') && next === 'running') {
    changes.started_at = ctx.at;
  }
  if (isCompleted(next)) {
    changes.finished_at = ctx.at;
    const startedAt = changes.started_at ?? pipeline.started_at;
    if (startedAt) {
      const periods = await runPeriods(ctx.trx, pipeline.id);
      changes.duration = Math.floor(
        runningSeconds(
          periods.map((p) => ({ startedAt: p.started_at, finishedAt: p.finished_at })),
          ctx.at,
        ),
      );
    }
  }
  const updated = await updatePipeline(ctx.trx, pipeline.id, changes);
  await announcePipeline(ctx, updated);
  // merge_when_build_succeeds: the merges this success owes, committed with it.
  if (next === 'success') await oweMergesForPipeline(ctx.trx, updated, ctx.at);
  return updated;
}

/**
 * ProcessPipelineService: decides the created builds of every stage whose predecessors have finished
 * (pending or skipped as their `when` says), then settles the pipeline's status.
 */
export async function processPipeline(ctx: CiTransaction, pipeline: CiPipelineRow): Promise<CiPipelineRow> {
  const groups = toGroups(await latestStatusGroups(ctx.trx, pipeline.id));
  if (groups.builds.some((g) => g.status === 'created') && (await processNeeds(ctx, pipeline.id))) {
    await setScheduledTimes(ctx, pipeline.id);
    return refreshPipeline(ctx, pipeline);
  }
  const steps = gatePipeline(groups.builds);
  for (const step of steps) {
    await moveCreatedBuilds(ctx.trx, pipeline.id, step.stageIdx, step.when, step.status, ctx.at);
  }
  if (steps.some((step) => step.status === 'scheduled')) await setScheduledTimes(ctx, pipeline.id);
  return settlePipeline(ctx, pipeline, groups);
}

/** Delayed jobs just scheduled get their time: now plus their `start_in`. */
async function setScheduledTimes(ctx: CiTransaction, pipelineId: number): Promise<void> {
  for (const build of await unscheduledBuilds(ctx.trx, pipelineId)) {
    const startIn = parseOptions(build.options).start_in;
    const seconds = (typeof startIn === 'string' ? parseDuration(startIn) : undefined) ?? 0;
    const at = new Date(Date.parse(ctx.at) + seconds * 1000).toISOString();
    await updateBuild(ctx.trx, build.id, { scheduled_at: at });
  }
}

/** The `needs:` of a build's options, as job names; null when it has none. */
function neededNames(options: string | null): string[] | null {
  if (options === null) return null;
  const needs = (JSON.parse(options) as { needs?: Array<{ job: string }> }).needs;
  return needs ? needs.map((need) => need.job) : null;
}

/**
 * A pipeline whose waiting builds include one with `needs:` is processed build by build (processDag);
 * false, and nothing moved, when none of them has needs (stage gating by groups does it then).
 */
async function processNeeds(ctx: CiTransaction, pipelineId: number): Promise<boolean> {
  const rows = await latestBuildsForProcessing(ctx.trx, pipelineId);
  const builds: ProcessedBuild[] = rows.map((row) => ({
    id: row.id,
    name: row.name,
    stageIdx: row.stage_idx,
    status: row.status,
    allowFailure: Number(row.allow_failure) === 1,
    when: row.when,
    count: 1,
    needs: neededNames(row.options),
  }));
  if (!builds.some((b) => b.status === 'created' && b.needs !== null)) return false;
  const moved = processDag(builds);
  for (const status of ['pending', 'skipped', 'scheduled'] as const) {
    const ids = moved.filter((b) => b.status === status).map((b) => b.id);
    await moveCreatedBuildsById(ctx.trx, ids, status, ctx.at);
  }
  return true;
}

/** The pipeline's status after a build moved without finishing (no stage can open). */
async function refreshPipeline(ctx: CiTransaction, pipeline: CiPipelineRow): Promise<CiPipelineRow> {
  return settlePipeline(ctx, pipeline, toGroups(await latestStatusGroups(ctx.trx, pipeline.id)));
}

/** Columns a build event sets besides its status. */
export type BuildChanges = Omit<Updateable<CiBuildsTable>, 'status' | 'id'>;

/**
 * One build event (run, success, drop, cancel, enqueue, …), if the build is still in a status the event
 * leaves: the build moves, its pipeline follows, and hooks announce both. Undefined when the build had
 * already moved on (another runner or request was first).
 */
export async function applyBuildEvent(
  ctx: CiTransaction,
  build: CiBuildRow,
  event: BuildEvent,
  extra: BuildChanges = {},
  /** false: the pipeline is left for the caller to process (a failed job retried at once). */
  settle = true,
): Promise<{ build: CiBuildRow; pipeline: CiPipelineRow } | undefined> {
  const { from, to } = buildEvent(event);
  if (!from.includes(build.status)) return undefined;
  const changes: Updateable<CiBuildsTable> = { ...extra, status: to, updated_at: ctx.at };
  if (build.status === 'created' && (to === 'pending' || to === 'running')) changes.queued_at = ctx.at;
  if ((build.status === 'created' || build.status === 'pending') && to === 'running')
    changes.started_at = ctx.at;
  if (isCompleted(to)) changes.finished_at = ctx.at;
  // The pipeline first, then the build: events of one pipeline's builds take their turns.
  await lockPipeline(ctx.trx, build.pipeline_id);
  const moved = await transitionBuild(ctx.trx, build.id, from, changes);
  if (!moved) return undefined;
  let pipeline = (await findPipeline(ctx.trx, moved.pipeline_id))!;
  if (settle)
    pipeline = isCompleted(to) ? await processPipeline(ctx, pipeline) : await refreshPipeline(ctx, pipeline);
  // GitLab's build hooks: pending → running, and every finish; statuses of other CI systems have none.
  if (moved.type === 'build' && ((build.status === 'pending' && to === 'running') || isCompleted(to)))
    await announceBuild(ctx, pipeline, moved);
  // A deploying job's success records its deployment (or stops its environment) with it.
  if (to === 'success' && moved.type === 'build' && moved.environment !== null)
    await recordJobEnvironment(ctx, pipeline, moved);
  return { build: moved, pipeline };
}
