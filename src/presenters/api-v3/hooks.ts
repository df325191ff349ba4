// Hook JSON shapes (GitLab's Entities::Hook and Entities::ProjectHook), and our own delivery log entity.
import type {
  HookDeliveryAttemptRow,
  HookDeliveryRow,
  ProjectHookRow,
  SystemHookRow,
} from '../../db/types.ts';

/** Entities::Hook: the list and create form. */
export function presentSystemHook(hook: SystemHookRow) {
  return { id: hook.id, url: hook.url, created_at: hook.created_at };
}

/** What DELETE /hooks/:id answers: every column of the hook, a superset of 8.13's Hook entity. */
export function presentSystemHookDeleted(hook: SystemHookRow) {
  return {
    id: hook.id,
    url: hook.url,
    project_id: null,
    service_id: null,
    created_at: hook.created_at,
    updated_at: hook.updated_at,
    push_events: hook.push_events === 1,
    tag_push_events: hook.tag_push_events === 1,
    // System hooks have no switches for these (GitLab's columns stayed false for them).
    issues_events: false,
    merge_requests_events: false,
    note_events: false,
    enable_ssl_verification: hook.enable_ssl_verification === 1,
  };
}

/** Entities::ProjectHook. */
export function presentProjectHook(hook: ProjectHookRow) {
  return {
    id: hook.id,
    url: hook.url,
    created_at: hook.created_at,
    project_id: hook.project_id,
    push_events: hook.push_events === 1,
    issues_events: hook.issues_events === 1,
    merge_requests_events: hook.merge_requests_events === 1,
    tag_push_events: hook.tag_push_events === 1,
    note_events: hook.note_events === 1,
    build_events: hook.build_events === 1,
    pipeline_events: hook.pipeline_events === 1,
    wiki_page_events: hook.wiki_page_events === 1,
    enable_ssl_verification: hook.enable_ssl_verification === 1,
  };
}

function presentDeliveryAttempt(attempt: HookDeliveryAttemptRow) {
  return {
    attempted_at: attempt.attempted_at,
    status_code: attempt.status_code,
    error: attempt.error,
    duration_ms: attempt.duration_ms,
    worker: attempt.worker,
  };
}

/** Labrador's own delivery log entry (not a GitLab 8.13 entity). */
export function presentDelivery(delivery: HookDeliveryRow, attempts: HookDeliveryAttemptRow[]) {
  return {
    id: delivery.id,
    hook_id: delivery.hook_id,
    event: delivery.event,
    status: delivery.status,
    attempts_count: delivery.attempts,
    next_attempt_at: delivery.status === 'pending' ? delivery.next_attempt_at : null,
    created_at: delivery.created_at,
    updated_at: delivery.updated_at,
    payload: JSON.parse(delivery.payload) as unknown,
    attempts: attempts.map(presentDeliveryAttempt),
  };
}
