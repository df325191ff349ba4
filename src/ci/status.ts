// Build and pipeline statuses as GitLab 8.13 computed them: the transitions a build may make, stage
// gating (a stage's builds wait as `created` until the stages before them are finished, then run or are
// skipped as their `when` says), and a pipeline's status from its newest build per name.
//
// 8.13 has no `manual` status: a manual job waits as `skipped` until it is played. Builds that failed
// but were allowed to, manual jobs still waiting and skipped `on_failure` jobs are "ignored": they count
// for neither a stage's nor the pipeline's status.
import type { CiStatus, CiWhen } from '../domain/types.ts';

const COMPLETED_STATUSES: readonly CiStatus[] = ['success', 'failed', 'canceled'];
export const ALL_STATUSES: readonly CiStatus[] = [
  'created',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
];

export const isCompleted = (status: CiStatus): boolean => COMPLETED_STATUSES.includes(status);

/** Build events and the statuses each may leave (CommitStatus's state machine). */
export type BuildEvent = 'enqueue' | 'process' | 'run' | 'skip' | 'drop' | 'success' | 'cancel';

const BUILD_EVENTS: Record<BuildEvent, { from: readonly CiStatus[]; to: CiStatus }> = {
  enqueue: { from: ['created', 'skipped', 'scheduled'], to: 'pending' },
  process: { from: ['skipped'], to: 'created' },
  run: { from: ['pending'], to: 'running' },
  skip: { from: ['created', 'pending'], to: 'skipped' },
  drop: { from: ['created', 'pending', 'running', 'scheduled'], to: 'failed' },
  success: { from: ['created', 'pending', 'running'], to: 'success' },
  cancel: { from: ['created', 'pending', 'running', 'scheduled'], to: 'canceled' },
};

/** The statuses an event moves a build from, and where to. */
export function buildEvent(event: BuildEvent): { from: readonly CiStatus[]; to: CiStatus } {
  return BUILD_EVENTS[event];
}

/** Rows of the newest builds (per name) of a pipeline, counted by what status computation needs. */
export interface StatusGroup {
  status: CiStatus;
  allowFailure: boolean;
  when: CiWhen;
  count: number;
}

function isIgnored(group: Pick<StatusGroup, 'status' | 'allowFailure' | 'when'>): boolean {
  if (group.allowFailure && (group.status === 'failed' || group.status === 'canceled')) return true;
  if (group.when === 'manual' && group.status === 'skipped') return true;
  if (group.when === 'on_failure' && group.status === 'skipped') return true;
  return false;
}

/**
 * The status of a set of builds (HasStatus.status_sql), or undefined when there are none at all. Rows
 * that exist but are all ignored make `success`.
 */
export function compositeStatus(groups: StatusGroup[]): CiStatus | undefined {
  if (groups.every((group) => group.count === 0)) return undefined;
  const count: Record<CiStatus, number> = {
    created: 0,
    pending: 0,
    running: 0,
    success: 0,
    failed: 0,
    canceled: 0,
    skipped: 0,
    scheduled: 0,
  };
  let total = 0;
  for (const group of groups) {
    if (isIgnored(group)) continue;
    count[group.status] += group.count;
    total += group.count;
  }
  if (total === count.success) return 'success';
  if (total === count.created) return 'created';
  if (total === count.success + count.skipped) return 'skipped';
  if (total === count.success + count.skipped + count.canceled) return 'canceled';
  // Delayed jobs waiting for their time, and nothing else to run before them.
  if (count.scheduled > 0 && total === count.success + count.skipped + count.scheduled + count.created)
    return 'scheduled';
  if (total === count.created + count.skipped + count.pending) return 'pending';
  if (count.running + count.pending + count.created > 0) return 'running';
  return 'failed';
}

/** Where a created build goes once the stages before it have finished with `prior`. */
function gatedStatus(when: CiWhen, prior: CiStatus): 'pending' | 'skipped' | 'scheduled' {
  switch (when) {
    case 'on_success':
      return prior === 'success' ? 'pending' : 'skipped';
    case 'delayed':
      return prior === 'success' ? 'scheduled' : 'skipped';
    case 'on_failure':
      return prior === 'failed' ? 'pending' : 'skipped';
    case 'always':
      return prior === 'success' || prior === 'failed' ? 'pending' : 'skipped';
    default:
      // manual jobs wait as skipped until they are played
      return 'skipped';
  }
}

export interface StageGroup extends StatusGroup {
  stageIdx: number | null;
  /** Builds that wait for their `needs:` instead of their stage: counted, never opened by stage. */
  dag?: boolean;
}

/** A change stage gating makes: every created build of that stage and `when` moves to `status`. */
export interface GatingStep {
  stageIdx: number;
  when: CiWhen;
  status: 'pending' | 'skipped' | 'scheduled';
}

/**
 * ProcessPipelineService: for each stage that still has created builds, in order, decide them once the
 * earlier stages are finished. `groups` are the newest builds (per name) of the pipeline; they are
 * updated in place so that later stages see what earlier steps did.
 */
export function gatePipeline(groups: StageGroup[]): GatingStep[] {
  const steps: GatingStep[] = [];
  const stages = [
    ...new Set(
      groups
        .filter((g) => g.status === 'created' && g.count > 0 && g.stageIdx !== null && !g.dag)
        .map((g) => g.stageIdx!),
    ),
  ].sort((a, b) => a - b);
  for (const stageIdx of stages) {
    const prior =
      compositeStatus(groups.filter((g) => g.stageIdx !== null && g.stageIdx < stageIdx)) ?? 'success';
    if (!isCompleted(prior)) continue;
    for (const group of groups.filter(
      (g) => g.stageIdx === stageIdx && g.status === 'created' && g.count > 0 && !g.dag,
    )) {
      const status = gatedStatus(group.when, prior);
      steps.push({ stageIdx, when: group.when, status });
      group.status = status;
    }
  }
  return steps;
}

/** One newest build of a pipeline that has jobs with `needs:` (each row counts once). */
export interface ProcessedBuild extends StageGroup {
  id: number;
  name: string;
  /** Names of the jobs it needs; null for a job gated by its stage. */
  needs: string[] | null;
}

/** Where a created job goes once the jobs it needs have finished with `prior` (skipped counts as done). */
function neededStatus(when: CiWhen, prior: CiStatus): 'pending' | 'skipped' | 'scheduled' {
  if (when === 'always') return 'pending';
  return gatedStatus(when, prior);
}

/**
 * Today's ProcessPipelineService for a pipeline with `needs:`: a job with needs becomes pending (or
 * skipped, as its `when` says) once every job it needs that the pipeline has is finished, whatever its
 * stage; `needs: []` at once. Other jobs keep stage gating, and a waiting job with needs holds back the
 * stages after its own. Repeats until nothing moves (a skipped job may settle the next), and answers
 * the builds whose status changed, moved in place.
 */
export function processDag(builds: ProcessedBuild[]): ProcessedBuild[] {
  const created = new Set(builds.filter((b) => b.status === 'created'));
  const byName = new Map(builds.map((b) => [b.name, b]));
  for (const build of builds) build.dag = build.needs !== null;
  let moved = true;
  while (moved) {
    moved = gatePipeline(builds).length > 0;
    for (const build of builds) {
      if (build.status !== 'created' || build.needs === null) continue;
      const needed = build.needs.flatMap((name) => byName.get(name) ?? []);
      const prior = compositeStatus(needed) ?? 'success';
      if (!isCompleted(prior) && prior !== 'skipped') continue;
      build.status = neededStatus(build.when, prior);
      moved = true;
    }
  }
  return builds.filter((b) => created.has(b) && b.status !== 'created');
}

/** The pipeline status that follows from its builds' (`failed` when the file was refused). */
export function pipelineStatusFrom(groups: StatusGroup[], hasYamlErrors: boolean): CiStatus {
  if (hasYamlErrors) return 'failed';
  return compositeStatus(groups) ?? 'skipped';
}

/**
 * The pipeline's move towards `computed` (its state machine), or undefined when it stays: `pending`
 * re-opens a finished pipeline as running, `created` never moves it.
 */
export function pipelineTransition(current: CiStatus, computed: CiStatus): CiStatus | undefined {
  let next: CiStatus | undefined;
  if (computed === 'pending') {
    if (current === 'created') next = 'pending';
    else if (['success', 'failed', 'canceled', 'skipped'].includes(current)) next = 'running';
  } else if (computed !== 'created') {
    next = computed;
  }
  return next === current ? undefined : next;
}

export interface Period {
  startedAt: string;
  finishedAt: string | null;
}

/** Seconds during which at least one build ran (overlapping runs counted once; running ones up to `now`). */
export function runningSeconds(periods: Period[], now: string): number {
  const spans = periods
    .map((period) => [Date.parse(period.startedAt), Date.parse(period.finishedAt ?? now)] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let current: [number, number] | undefined;
  for (const [start, end] of spans) {
    if (current && start <= current[1]) {
      current[1] = Math.max(current[1], end);
    } else {
      if (current) total += current[1] - current[0];
      current = [start, end];
    }
  }
  if (current) total += current[1] - current[0];
  return total / 1000;
}
