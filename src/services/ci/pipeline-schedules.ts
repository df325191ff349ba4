// Pipeline schedules (v4's Ci::PipelineSchedule): a branch or tag built on a five-field cron in a time
// zone, as the schedule's owner, source `schedule`. next_run_at is the cron's next time after now
// (cron-parser evaluates it in the zone, daylight-saving changes included); a run claims its slot by
// moving next_run_at on with a compare-and-swap in the same transaction as the pipeline, so of several
// processes on one database exactly one runs each due slot, and a crash leaves neither half.
import { CronExpressionParser } from 'cron-parser';
import type { Deps } from '../../deps.ts';
import { apiError, validationFailed } from '../../errors.ts';
import { now } from '../../lib/clock.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { BLANK_SHA } from '../../domain/types.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import {
  claimScheduleRun,
  deletePipelineScheduleRow,
  deleteScheduleVariableRow,
  duePipelineSchedules,
  insertPipelineSchedule,
  insertScheduleVariable,
  scheduleVariables,
  updatePipelineSchedule,
  updateScheduleVariable,
} from '../../db/repositories/pipeline-schedules.ts';
import type {
  CiPipelineRow,
  CiPipelineScheduleRow,
  CiPipelineScheduleVariableRow,
  ProjectRecord,
} from '../../db/types.ts';
import { resolveTriggerRef } from './triggers.ts';
import { CI_FILE_MAX_BYTES, createPipeline, planPipeline, type PipelinePlan } from './pipelines.ts';
import { projectOpener } from './include-projects.ts';

export interface ScheduleFields {
  description: string;
  ref: string;
  cron: string;
  cron_timezone: string;
  active: boolean;
}

/** The zone's name when the platform knows it (IANA names such as `Europe/Berlin`, and `UTC`). */
function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone !== '';
  } catch {
    return false;
  }
}

/** The cron's next time after `after` in `zone` (ISO, UTC); undefined for a cron that is not valid. */
function nextTime(cron: string, zone: string, after: Date): string | undefined {
  // GitLab's cron has five fields (no seconds, no years).
  if (cron.trim().split(/\s+/).length !== 5) return undefined;
  try {
    return CronExpressionParser.parse(cron, { currentDate: after, tz: zone }).next().toDate().toISOString();
  } catch {
    return undefined;
  }
}

/** 400 with GitLab's validation shape for a bad cron or zone; else the next run after `after`. */
function nextRunAt(cron: string, zone: string, after: Date = new Date()): string {
  const errors: Record<string, string[]> = {};
  const zoneKnown = knownTimeZone(zone);
  if (!zoneKnown) errors.cron_timezone = ['is invalid syntax'];
  const next = nextTime(cron, zoneKnown ? zone : 'UTC', after);
  if (next === undefined) errors.cron = ['is invalid syntax'];
  if (next === undefined || !zoneKnown) throw validationFailed(errors);
  return next;
}

export function createPipelineSchedule(
  deps: Deps,
  projectId: number,
  ownerId: number,
  fields: ScheduleFields,
): Promise<CiPipelineScheduleRow> {
  const at = now();
  return insertPipelineSchedule(deps.db.kysely, {
    project_id: projectId,
    description: fields.description,
    ref: fields.ref,
    cron: fields.cron,
    cron_timezone: fields.cron_timezone,
    next_run_at: nextRunAt(fields.cron, fields.cron_timezone),
    active: fields.active ? 1 : 0,
    owner_id: ownerId,
    created_at: at,
    updated_at: at,
  });
}

/** v4's PUT and take_ownership; a new cron, zone or activation is rescheduled from now. */
export async function changePipelineSchedule(
  deps: Deps,
  schedule: CiPipelineScheduleRow,
  changes: Partial<ScheduleFields> & { owner_id?: number },
): Promise<CiPipelineScheduleRow> {
  const { active, ...rest } = changes;
  const cron = changes.cron ?? schedule.cron;
  const zone = changes.cron_timezone ?? schedule.cron_timezone;
  const reschedule = changes.cron !== undefined || changes.cron_timezone !== undefined || active === true;
  const updated = await updatePipelineSchedule(deps.db.kysely, schedule.id, {
    ...rest,
    ...(active === undefined ? {} : { active: active ? 1 : 0 }),
    ...(reschedule ? { next_run_at: nextRunAt(cron, zone) } : {}),
    updated_at: now(),
  });
  if (!updated) throw apiError(404, '404 Pipeline Schedule Not Found');
  return updated;
}

export async function deletePipelineSchedule(deps: Deps, schedule: CiPipelineScheduleRow): Promise<boolean> {
  return deletePipelineScheduleRow(deps.db.kysely, schedule.id);
}

const VARIABLE_KEY = /^[a-zA-Z0-9_]{1,255}$/;
const VARIABLE_TYPES = ['env_var', 'file'];

function checkedVariableType(type: string | undefined): string | undefined {
  if (type !== undefined && !VARIABLE_TYPES.includes(type)) {
    throw validationFailed({ variable_type: ['is not included in the list'] });
  }
  return type;
}

export async function addScheduleVariable(
  deps: Deps,
  schedule: CiPipelineScheduleRow,
  variable: { key: string; value: string; variable_type?: string },
): Promise<CiPipelineScheduleVariableRow> {
  if (!VARIABLE_KEY.test(variable.key)) {
    throw validationFailed({
      key: ["can contain only letters, digits and '_'."],
    });
  }
  const at = now();
  const row = await insertScheduleVariable(deps.db.kysely, {
    pipeline_schedule_id: schedule.id,
    key: variable.key,
    value: variable.value,
    variable_type: checkedVariableType(variable.variable_type) ?? 'env_var',
    created_at: at,
    updated_at: at,
  });
  if (!row) throw validationFailed({ key: ['(' + variable.key + ') has already been taken'] });
  return row;
}

export async function changeScheduleVariable(
  deps: Deps,
  variable: CiPipelineScheduleVariableRow,
  changes: { value?: string; variable_type?: string },
): Promise<CiPipelineScheduleVariableRow> {
  const type = checkedVariableType(changes.variable_type);
  const updated = await updateScheduleVariable(deps.db.kysely, variable.id, {
    ...(changes.value === undefined ? {} : { value: changes.value }),
    ...(type === undefined ? {} : { variable_type: type }),
    updated_at: now(),
  });
  if (!updated) throw apiError(404, '404 Variable Not Found');
  return updated;
}

export function deleteScheduleVariable(
  deps: Deps,
  variable: CiPipelineScheduleVariableRow,
): Promise<boolean> {
  return deleteScheduleVariableRow(deps.db.kysely, variable.id);
}

async function planScheduled(
  deps: Deps,
  record: ProjectRecord,
  schedule: CiPipelineScheduleRow,
  /** Who the pipeline runs as (and reads `include: project` files as). */
  userId: number | null,
): Promise<PipelinePlan | undefined> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const target = await resolveTriggerRef(repoPath, schedule.ref);
  if (!target) return undefined;
  // The schedule's variables as they are now become the pipeline's own, which its jobs (and rules) see.
  const variables = (await scheduleVariables(deps.db.kysely, [schedule.id])).map((row) => ({
    key: row.key,
    value: row.value,
    variableType: row.variable_type === 'file' ? ('file' as const) : ('env_var' as const),
  }));
  const plan = await planPipeline({
    repoPath,
    record,
    ...target,
    beforeSha: BLANK_SHA,
    source: 'schedule',
    variables: variables.map((v) => [v.key, v.value]),
    openProject: projectOpener(deps, { userId }, CI_FILE_MAX_BYTES),
  });
  return plan && { ...plan, pipelineScheduleId: schedule.id, variables };
}

/**
 * v4's play: runs the schedule's pipeline now, as the caller; its next run stays as it was. 400
 * `Reference not found` / `No builds created` as for a pipeline asked for through the API.
 */
export async function playPipelineSchedule(
  deps: Deps,
  record: ProjectRecord,
  schedule: CiPipelineScheduleRow,
  userId: number,
): Promise<CiPipelineRow> {
  const plan = await planScheduled(deps, record, schedule, userId);
  if (!plan) throw apiError(400, 'No builds created');
  const at = now();
  return deps.db.kysely
    .transaction()
    .execute((trx) => createPipeline(trx, deps.config, record, userId, plan, at));
}

/**
 * Runs every schedule due at `at` once, as its owner; answers how many pipelines this process ran. A
 * schedule whose ref or file makes no pipeline (or whose owner is gone) only moves on to its next time.
 */
export async function runDueSchedules(deps: Deps, at: Date, stopping: () => boolean): Promise<number> {
  const db = deps.db.kysely;
  const atText = at.toISOString();
  let ran = 0;
  // `at` says which runs are due (tests look ahead); rows are stamped with the real time.
  const stamp = now();
  for (const schedule of await duePipelineSchedules(db, atText, 100)) {
    if (stopping()) break;
    const next = nextTime(schedule.cron, schedule.cron_timezone, at);
    const record = await findProjectRecordById(db, schedule.project_id);
    // A repository that cannot be read makes no pipeline this time; the run still moves on, so one
    // broken schedule does not hold up the others behind it.
    const plan =
      record && schedule.owner_id !== null && record.project.builds_enabled === 1
        ? await planScheduled(deps, record, schedule, schedule.owner_id).catch(() => undefined)
        : undefined;
    const created = await db.transaction().execute(async (trx) => {
      // An unparsable stored cron (none is written) is switched off rather than retried forever.
      if (next === undefined) {
        await updatePipelineSchedule(trx, schedule.id, { active: 0, updated_at: stamp });
        return false;
      }
      if (!(await claimScheduleRun(trx, schedule, next, stamp))) return false;
      if (!record || !plan) return false;
      await createPipeline(trx, deps.config, record, schedule.owner_id, plan, stamp);
      return true;
    });
    if (created) ran += 1;
  }
  return ran;
}
