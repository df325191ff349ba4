// v4's Hook and ProjectHook entities (lib/api/entities/hook.rb, project_hook.rb) from the hook rows:
// `job_events` is the stored build switch. What Labrador does not deliver (repository updates,
// confidential notes, releases) or keep (branch filters, URL variables) reads false or null.
import type { ProjectHookRow, SystemHookRow } from '../../db/types.ts';

function presentHookBase(hook: SystemHookRow | ProjectHookRow, mergeRequests: boolean) {
  return {
    id: hook.id,
    url: hook.url,
    created_at: hook.created_at,
    push_events: hook.push_events === 1,
    tag_push_events: hook.tag_push_events === 1,
    merge_requests_events: mergeRequests,
    repository_update_events: false,
    enable_ssl_verification: hook.enable_ssl_verification === 1,
    alert_status: 'executable',
    disabled_until: null,
    push_events_branch_filter: null,
    branch_filter_strategy: 'wildcard',
  };
}

/** A system hook: Labrador's switch only pushes and tag pushes. */
export function presentSystemHook(hook: SystemHookRow) {
  return presentHookBase(hook, false);
}

export function presentProjectHook(hook: ProjectHookRow) {
  return {
    ...presentHookBase(hook, hook.merge_requests_events === 1),
    project_id: hook.project_id,
    issues_events: hook.issues_events === 1,
    confidential_issues_events: hook.confidential_issues_events === 1,
    note_events: hook.note_events === 1,
    confidential_note_events: false,
    pipeline_events: hook.pipeline_events === 1,
    wiki_page_events: hook.wiki_page_events === 1,
    deployment_events: hook.deployment_events === 1,
    job_events: hook.build_events === 1,
    releases_events: false,
  };
}
