// The webhook outbox: the one way any area announces an event to hooks. Deliveries are queued inside the
// caller's transaction, so they commit (or roll back) with the change they announce; the worker
// (workers/hook-delivery.ts) sends them later, so a slow or dead receiver never delays a request.
//
// Announcing a new kind of event takes two steps: shape its payload in src/presenters/, then, in the
// transaction of the change, call enqueueProjectHooks(trx, projectId, scope, payload) — the scope is the
// hook's switch (`build_events`, `pipeline_events` …) and names the X-Gitlab-Event header — and/or
// enqueueSystemHooks(trx, eventName, payload).
import type { HookKind } from '../../db/schema.ts';
import { enqueueForHooks, insertDelivery } from '../../db/repositories/hook-deliveries.ts';
import { now } from '../../lib/clock.ts';
import type { Executor, ProjectHookScope } from '../../db/types.ts';

export type { HookKind, ProjectHookScope };

/** X-Gitlab-Event of project hooks: the scope singularized and titleized, as WebHook#build_headers did. */
const PROJECT_HOOK_EVENTS: Record<ProjectHookScope, string> = {
  push_events: 'Push Hook',
  tag_push_events: 'Tag Push Hook',
  issues_events: 'Issue Hook',
  confidential_issues_events: 'Confidential Issue Hook',
  merge_requests_events: 'Merge Request Hook',
  note_events: 'Note Hook',
  build_events: 'Build Hook',
  pipeline_events: 'Pipeline Hook',
  wiki_page_events: 'Wiki Page Hook',
  deployment_events: 'Deployment Hook',
};

/** Every system hook event, whatever its event_name, goes out as "System Hook". */
export const SYSTEM_HOOK_EVENT = 'System Hook';

/** System hook events that go only to the hooks with this switch on; every other event goes to all. */
const SYSTEM_HOOK_SWITCHES: Partial<Record<string, 'push_events' | 'tag_push_events'>> = {
  push: 'push_events',
  tag_push: 'tag_push_events',
};

// Workers in this process are told when new rows may be due, so a delivery does not wait for the next
// poll. The enqueue runs inside an uncommitted transaction, hence the short delay in the worker's wake.
const enqueueListeners = new Set<() => void>();

export function onHooksEnqueued(listener: () => void): () => void {
  enqueueListeners.add(listener);
  return () => enqueueListeners.delete(listener);
}

function wakeHookWorkers(): void {
  for (const listener of enqueueListeners) listener();
}

/** One delivery per hook of the project whose `scope` switch is on, in the caller's transaction. */
export async function enqueueProjectHooks(
  trx: Executor,
  projectId: number,
  scope: ProjectHookScope,
  payload: object,
): Promise<number> {
  const count = await enqueueForHooks(
    trx,
    { kind: 'project', projectId, scope },
    { event: PROJECT_HOOK_EVENTS[scope], payload: JSON.stringify(payload), at: now() },
  );
  if (count > 0) wakeHookWorkers();
  return count;
}

/** One delivery per system hook (see SYSTEM_HOOK_SWITCHES), in the caller's transaction. */
export async function enqueueSystemHooks(trx: Executor, eventName: string, payload: object): Promise<number> {
  const count = await enqueueForHooks(
    trx,
    { kind: 'system', only: SYSTEM_HOOK_SWITCHES[eventName] },
    { event: SYSTEM_HOOK_EVENT, payload: JSON.stringify(payload), at: now() },
  );
  if (count > 0) wakeHookWorkers();
  return count;
}

/** One delivery to one hook, whatever its switches (a hook test, a resend). */
export async function enqueueDelivery(
  db: Executor,
  kind: HookKind,
  hookId: number,
  event: string,
  payloadJson: string,
) {
  const delivery = await insertDelivery(db, kind, hookId, { event, payload: payloadJson, at: now() });
  wakeHookWorkers();
  return delivery;
}
