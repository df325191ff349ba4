// Trigger shapes (GitLab 8.13's Entities::Trigger and Entities::TriggerRequest).
import type { CiTriggerRequestRow, CiTriggerRow } from '../../db/types.ts';

/** Entities::Trigger; `last_used` is the time of its newest request (null before the first). */
export function presentTrigger(trigger: CiTriggerRow, lastUsed: string | null) {
  return {
    token: trigger.token,
    created_at: trigger.created_at,
    updated_at: trigger.updated_at,
    deleted_at: trigger.deleted_at,
    last_used: lastUsed,
  };
}

/** Entities::TriggerRequest: what a trigger call answers; `variables` as they were passed, or null. */
export function presentTriggerRequest(request: CiTriggerRequestRow) {
  return {
    id: request.id,
    variables: request.variables === null ? null : (JSON.parse(request.variables) as Record<string, string>),
  };
}
