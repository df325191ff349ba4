// Build triggers (ci_triggers) and the requests made with them (ci_trigger_requests).
import type { CiTriggerRequestRow, Executor } from '../types.ts';

export function findTriggerRequest(db: Executor, id: number): Promise<CiTriggerRequestRow | undefined> {
  return db.selectFrom('ci_trigger_requests').selectAll().where('id', '=', id).executeTakeFirst();
}
