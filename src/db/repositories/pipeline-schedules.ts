// Pipeline schedules (ci_pipeline_schedules) and their variables (ci_pipeline_schedule_variables). The
// worker's claim is a compare-and-swap on next_run_at: of several processes seeing one due run, only the
// one whose UPDATE still finds the old time moves it on and runs the pipeline.
import type {
  CiPipelineRow,
  CiPipelineScheduleChanges,
  CiPipelineScheduleRow,
  CiPipelineScheduleVariableRow,
  Executor,
  NewCiPipelineSchedule,
} from '../types.ts';

export function insertPipelineSchedule(
  db: Executor,
  row: NewCiPipelineSchedule,
): Promise<CiPipelineScheduleRow> {
  return db.insertInto('ci_pipeline_schedules').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updatePipelineSchedule(
  db: Executor,
  id: number,
  changes: CiPipelineScheduleChanges,
): Promise<CiPipelineScheduleRow | undefined> {
  return db
    .updateTable('ci_pipeline_schedules')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deletePipelineScheduleRow(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('ci_pipeline_schedules').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function findProjectPipelineSchedule(
  db: Executor,
  projectId: number,
  id: number,
): Promise<CiPipelineScheduleRow | undefined> {
  return db
    .selectFrom('ci_pipeline_schedules')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

function scheduleList(db: Executor, projectId: number, active: boolean | undefined) {
  let query = db.selectFrom('ci_pipeline_schedules').where('project_id', '=', projectId);
  if (active !== undefined) query = query.where('active', '=', active ? 1 : 0);
  return query;
}

export async function countPipelineSchedules(
  db: Executor,
  projectId: number,
  active: boolean | undefined,
): Promise<number> {
  const row = await scheduleList(db, projectId, active)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listPipelineSchedules(
  db: Executor,
  projectId: number,
  active: boolean | undefined,
  page: { limit: number; offset: number },
): Promise<CiPipelineScheduleRow[]> {
  return scheduleList(db, projectId, active)
    .selectAll()
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Active schedules due at `at`, soonest first (the (active, next_run_at) index). */
export function duePipelineSchedules(
  db: Executor,
  at: string,
  limit: number,
): Promise<CiPipelineScheduleRow[]> {
  return db
    .selectFrom('ci_pipeline_schedules')
    .selectAll()
    .where('active', '=', 1)
    .where('next_run_at', '<=', at)
    .orderBy('next_run_at')
    .limit(limit)
    .execute();
}

/** Moves a due run on to `next`; false when another process moved it first (or it was changed). */
export async function claimScheduleRun(
  db: Executor,
  schedule: Pick<CiPipelineScheduleRow, 'id' | 'next_run_at'>,
  next: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('ci_pipeline_schedules')
    .set({ next_run_at: next, updated_at: at })
    .where('id', '=', schedule.id)
    .where('next_run_at', '=', schedule.next_run_at)
    .where('active', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function scheduleVariables(
  db: Executor,
  scheduleIds: number[],
): Promise<CiPipelineScheduleVariableRow[]> {
  if (scheduleIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('ci_pipeline_schedule_variables')
    .selectAll()
    .where('pipeline_schedule_id', 'in', scheduleIds)
    .orderBy('id')
    .execute();
}

export function findScheduleVariable(
  db: Executor,
  scheduleId: number,
  key: string,
): Promise<CiPipelineScheduleVariableRow | undefined> {
  return db
    .selectFrom('ci_pipeline_schedule_variables')
    .selectAll()
    .where('pipeline_schedule_id', '=', scheduleId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** The new variable; undefined when the schedule already has one by that key. */
export function insertScheduleVariable(
  db: Executor,
  row: Omit<CiPipelineScheduleVariableRow, 'id'>,
): Promise<CiPipelineScheduleVariableRow | undefined> {
  return db
    .insertInto('ci_pipeline_schedule_variables')
    .values(row)
    .onConflict((oc) => oc.columns(['pipeline_schedule_id', 'key']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function updateScheduleVariable(
  db: Executor,
  id: number,
  changes: { value?: string; variable_type?: string; updated_at: string },
): Promise<CiPipelineScheduleVariableRow | undefined> {
  return db
    .updateTable('ci_pipeline_schedule_variables')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteScheduleVariableRow(db: Executor, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('ci_pipeline_schedule_variables')
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The newest pipeline of each schedule (one index step per schedule down (pipeline_schedule_id, id)). */
export async function lastSchedulePipelines(
  db: Executor,
  scheduleIds: number[],
): Promise<Map<number, CiPipelineRow>> {
  if (scheduleIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('ci_pipelines as p')
    .selectAll('p')
    .where('p.pipeline_schedule_id', 'in', scheduleIds)
    .where('p.id', '=', (eb) =>
      eb
        .selectFrom('ci_pipelines as q')
        .select('q.id')
        .whereRef('q.pipeline_schedule_id', '=', 'p.pipeline_schedule_id')
        .orderBy('q.id', 'desc')
        .limit(1),
    )
    .execute();
  return new Map(rows.map((row) => [row.pipeline_schedule_id!, row]));
}

export async function countSchedulePipelines(db: Executor, scheduleId: number): Promise<number> {
  const row = await db
    .selectFrom('ci_pipelines')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('pipeline_schedule_id', '=', scheduleId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listSchedulePipelines(
  db: Executor,
  scheduleId: number,
  order: 'asc' | 'desc',
  page: { limit: number; offset: number },
): Promise<CiPipelineRow[]> {
  return db
    .selectFrom('ci_pipelines')
    .selectAll()
    .where('pipeline_schedule_id', '=', scheduleId)
    .orderBy('id', order)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
