// Reads of a project's pipeline schedules: a page with their owners, one with its owner, variables and
// newest pipeline (each a batch read, whatever the page size), and the pipelines a schedule ran.
import type { Deps } from '../deps.ts';
import {
  countPipelineSchedules,
  countSchedulePipelines,
  findProjectPipelineSchedule,
  findScheduleVariable,
  lastSchedulePipelines,
  listPipelineSchedules,
  listSchedulePipelines,
  scheduleVariables,
} from '../db/repositories/pipeline-schedules.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { notFound } from '../errors.ts';
import type { CiPipelineScheduleRow, CiPipelineScheduleVariableRow } from '../db/types.ts';

async function withOwners(deps: Deps, schedules: CiPipelineScheduleRow[]) {
  const owners = await usersByIds(
    deps.db.kysely,
    schedules.map((schedule) => schedule.owner_id).filter((id): id is number => id !== null),
  );
  return schedules.map((schedule) => ({
    schedule,
    owner: schedule.owner_id === null ? null : (owners.get(schedule.owner_id) ?? null),
  }));
}

export function countScheduleList(deps: Deps, projectId: number, active: boolean | undefined) {
  return countPipelineSchedules(deps.db.kysely, projectId, active);
}

export async function listSchedulesWithOwners(
  deps: Deps,
  projectId: number,
  active: boolean | undefined,
  page: { limit: number; offset: number },
) {
  return withOwners(deps, await listPipelineSchedules(deps.db.kysely, projectId, active, page));
}

/** The project's schedule by id, or 404 `404 Pipeline Schedule Not Found`. */
export async function loadScheduleOr404(
  deps: Deps,
  projectId: number,
  id: number,
): Promise<CiPipelineScheduleRow> {
  const schedule = await findProjectPipelineSchedule(deps.db.kysely, projectId, id);
  if (!schedule) throw notFound('Pipeline Schedule');
  return schedule;
}

/** One schedule as PipelineScheduleDetails shows it: owner, newest pipeline, variables. */
export async function scheduleDetails(deps: Deps, schedule: CiPipelineScheduleRow) {
  const [[owned], last, variables] = await Promise.all([
    withOwners(deps, [schedule]),
    lastSchedulePipelines(deps.db.kysely, [schedule.id]),
    scheduleVariables(deps.db.kysely, [schedule.id]),
  ]);
  return { ...owned!, lastPipeline: last.get(schedule.id) ?? null, variables };
}

/** The schedule's variable by key, or 404 `404 Variable Not Found`. */
export async function loadScheduleVariableOr404(
  deps: Deps,
  schedule: CiPipelineScheduleRow,
  key: string,
): Promise<CiPipelineScheduleVariableRow> {
  const variable = await findScheduleVariable(deps.db.kysely, schedule.id, key);
  if (!variable) throw notFound('Variable');
  return variable;
}

export function countScheduledPipelines(deps: Deps, scheduleId: number) {
  return countSchedulePipelines(deps.db.kysely, scheduleId);
}

export function scheduledPipelines(
  deps: Deps,
  scheduleId: number,
  order: 'asc' | 'desc',
  page: { limit: number; offset: number },
) {
  return listSchedulePipelines(deps.db.kysely, scheduleId, order, page);
}
