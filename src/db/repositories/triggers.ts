// Build triggers (ci_triggers) and the requests made with them (ci_trigger_requests). A deleted trigger
// keeps its row with `deleted_at` set (GitLab's acts_as_paranoid): it no longer lists or triggers.
import type {
  CiTriggerRequestRow,
  CiTriggerRow,
  Executor,
  NewCiTrigger,
  NewCiTriggerRequest,
} from '../types.ts';

/** A trigger with the time of its newest request (GitLab's `last_used`). */
export interface CiTriggerWithUse extends CiTriggerRow {
  last_used: string | null;
}

export function findTriggerRequest(db: Executor, id: number): Promise<CiTriggerRequestRow | undefined> {
  return db.selectFrom('ci_trigger_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

function triggersWithUse(db: Executor) {
  return db
    .selectFrom('ci_triggers as t')
    .selectAll('t')
    .select((eb) =>
      // The newest request by id: one step down the (trigger_id, id) index, however many there were.
      eb
        .selectFrom('ci_trigger_requests as r')
        .select('r.created_at')
        .whereRef('r.trigger_id', '=', 't.id')
        .orderBy('r.id', 'desc')
        .limit(1)
        .as('last_used'),
    )
    .where('t.deleted_at', 'is', null);
}

export async function countTriggers(db: Executor, projectId: number): Promise<number> {
  const row = await db
    .selectFrom('ci_triggers')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('project_id', '=', projectId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listTriggers(
  db: Executor,
  projectId: number,
  page: { limit: number; offset: number },
): Promise<CiTriggerWithUse[]> {
  return triggersWithUse(db)
    .where('t.project_id', '=', projectId)
    .orderBy('t.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute() as Promise<CiTriggerWithUse[]>;
}

/** A live trigger of the project by its token. */
export function findProjectTrigger(
  db: Executor,
  projectId: number,
  token: string,
): Promise<CiTriggerWithUse | undefined> {
  return triggersWithUse(db)
    .where('t.token', '=', token)
    .where('t.project_id', '=', projectId)
    .executeTakeFirst() as Promise<CiTriggerWithUse | undefined>;
}

/** A live trigger by its token alone (what a trigger call names). */
export function findTriggerByToken(db: Executor, token: string): Promise<CiTriggerRow | undefined> {
  return db
    .selectFrom('ci_triggers')
    .selectAll()
    .where('token', '=', token)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function insertTrigger(db: Executor, row: NewCiTrigger): Promise<CiTriggerRow> {
  return db.insertInto('ci_triggers').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Marks the trigger deleted; undefined when it already was (another request was first). */
export function softDeleteTrigger(db: Executor, id: number, at: string): Promise<CiTriggerRow | undefined> {
  return db
    .updateTable('ci_triggers')
    .set({ deleted_at: at, updated_at: at })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export function insertTriggerRequest(db: Executor, row: NewCiTriggerRequest): Promise<CiTriggerRequestRow> {
  return db.insertInto('ci_trigger_requests').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function setTriggerRequestPipeline(db: Executor, id: number, pipelineId: number): Promise<void> {
  await db.updateTable('ci_trigger_requests').set({ pipeline_id: pipelineId }).where('id', '=', id).execute();
}

/** The trigger call that made a pipeline, if one did. */
export function triggerRequestOfPipeline(
  db: Executor,
  pipelineId: number,
): Promise<CiTriggerRequestRow | undefined> {
  return db
    .selectFrom('ci_trigger_requests')
    .selectAll()
    .where('pipeline_id', '=', pipelineId)
    .executeTakeFirst();
}

/** A live trigger of the project by its id, with its last use. */
export function findProjectTriggerById(
  db: Executor,
  projectId: number,
  id: number,
): Promise<CiTriggerWithUse | undefined> {
  return triggersWithUse(db)
    .where('t.id', '=', id)
    .where('t.project_id', '=', projectId)
    .executeTakeFirst() as Promise<CiTriggerWithUse | undefined>;
}

export function updateTrigger(
  db: Executor,
  id: number,
  changes: { description?: string | null; owner_id?: number; updated_at: string },
): Promise<CiTriggerRow> {
  return db
    .updateTable('ci_triggers')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
