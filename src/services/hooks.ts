// Hooks: the outbox every area writes to inside its own transaction, and the hook management rules.
// A delivery row is committed (or rolled back) with the action it announces; the worker sends it later,
// so a slow or dead receiver never delays the request (reference/internals.md §1, §2).
import type { Deps } from '../deps.ts';
import type { Executor } from '../db/repositories/users.ts';
import type { HookKind } from '../db/schema.ts';
import * as repo from '../db/repositories/hooks.ts';
import type { ProjectHookRow, ProjectHookScope, SystemHookRow } from '../db/repositories/hooks.ts';
import { now } from '../db/errors.ts';
import { findProjectRecordById } from '../db/repositories/projects.ts';
import { findNamespaceById } from '../db/repositories/namespaces.ts';
import { findUserById } from '../db/repositories/users.ts';
import { notFound, paramsMissing, recordNotFound, ApiError } from '../http/errors.ts';
import {
  groupMemberSystemPayload,
  groupSystemPayload,
  keySystemPayload,
  projectMemberSystemPayload,
  projectSystemPayload,
  systemHookTestPayload,
  systemPushPayload,
  userSystemPayload,
  type HookGroup,
  type HookKey,
  type HookMember,
  type HookNamespace,
  type HookOwner,
  type HookProject,
  type HookUser,
  type ProjectSystemEvent,
  type PushPayload,
} from '../presenters/hook-payloads.ts';

export type { ProjectHookScope };

/** X-Gitlab-Event of project hooks: the scope singularized and titleized, as WebHook#build_headers did. */
export const PROJECT_HOOK_EVENTS: Record<ProjectHookScope, string> = {
  push_events: 'Push Hook',
  tag_push_events: 'Tag Push Hook',
  issues_events: 'Issue Hook',
  confidential_issues_events: 'Confidential Issue Hook',
  merge_requests_events: 'Merge Request Hook',
  note_events: 'Note Hook',
  build_events: 'Build Hook',
  pipeline_events: 'Pipeline Hook',
  wiki_page_events: 'Wiki Page Hook',
};

/** Every system hook event, whatever its event_name, goes out as "System Hook". */
export const SYSTEM_HOOK_EVENT = 'System Hook';

// Workers in this process are told when new rows may be due, so a delivery does not wait for the next
// poll. The enqueue runs inside an uncommitted transaction, hence the short delay in the worker's wake.
const enqueueListeners = new Set<() => void>();

export function onHooksEnqueued(listener: () => void): () => void {
  enqueueListeners.add(listener);
  return () => enqueueListeners.delete(listener);
}

export function wakeHookWorkers(): void {
  for (const listener of enqueueListeners) listener();
}

/**
 * One delivery per system hook, in the caller's transaction. `push` and `tag_push` go only to hooks with
 * push_events / tag_push_events on; every other event to every system hook.
 */
export async function enqueueSystemHooks(
  trx: Executor,
  eventName: string,
  payload: Record<string, unknown>,
): Promise<number> {
  const only =
    eventName === 'push' ? 'push_events' : eventName === 'tag_push' ? 'tag_push_events' : undefined;
  const count = await repo.enqueueForSystemHooks(
    trx,
    { event: SYSTEM_HOOK_EVENT, payload: JSON.stringify(payload), at: now() },
    only,
  );
  if (count > 0) wakeHookWorkers();
  return count;
}

/** One delivery per hook of the project whose `scope` switch is on, in the caller's transaction. */
export async function enqueueProjectHooks(
  trx: Executor,
  projectId: number,
  scope: ProjectHookScope,
  payload: Record<string, unknown>,
): Promise<number> {
  const count = await repo.enqueueForProjectHooks(trx, projectId, scope, {
    event: PROJECT_HOOK_EVENTS[scope],
    payload: JSON.stringify(payload),
    at: now(),
  });
  if (count > 0) wakeHookWorkers();
  return count;
}

// ---- announcements: what each area calls inside its transaction

export function announceProject(
  trx: Executor,
  eventName: ProjectSystemEvent,
  project: HookProject,
  namespace: HookNamespace,
  owner: HookOwner,
  oldPathWithNamespace?: string,
): Promise<number> {
  return enqueueSystemHooks(
    trx,
    eventName,
    projectSystemPayload(eventName, project, namespace, owner, oldPathWithNamespace),
  );
}

export function announceUser(trx: Executor, eventName: 'user_create' | 'user_destroy', user: HookUser) {
  return enqueueSystemHooks(trx, eventName, userSystemPayload(eventName, user));
}

export function announceProjectMember(
  trx: Executor,
  eventName: 'user_add_to_team' | 'user_remove_from_team',
  member: HookMember,
  project: HookProject,
  namespace: HookNamespace,
  user: HookUser,
) {
  return enqueueSystemHooks(
    trx,
    eventName,
    projectMemberSystemPayload(eventName, member, project, namespace, user),
  );
}

export function announceGroupMember(
  trx: Executor,
  eventName: 'user_add_to_group' | 'user_remove_from_group',
  member: HookMember,
  group: HookGroup,
  user: HookUser,
) {
  return enqueueSystemHooks(trx, eventName, groupMemberSystemPayload(eventName, member, group, user));
}

export function announceGroup(
  trx: Executor,
  eventName: 'group_create' | 'group_destroy',
  group: HookGroup,
  owner: { name: string; email: string } | null,
) {
  return enqueueSystemHooks(trx, eventName, groupSystemPayload(eventName, group, owner));
}

export function announceKey(
  trx: Executor,
  eventName: 'key_create' | 'key_destroy' | 'deploykey_create' | 'deploykey_destroy',
  key: HookKey,
  user: { username: string } | null,
) {
  return enqueueSystemHooks(trx, eventName, keySystemPayload(eventName, key, user));
}

/**
 * A branch or tag push (`payload` as services/push-data.ts builds it): the project's push / tag push hooks
 * get it whole (≤ 20 commits), system hooks with the matching switch get it without commits (GitLab 8.13).
 */
export async function announcePush(
  trx: Executor,
  projectId: number,
  payload: PushPayload & Record<string, unknown>,
): Promise<void> {
  const tag = payload.object_kind === 'tag_push';
  await enqueueProjectHooks(trx, projectId, tag ? 'tag_push_events' : 'push_events', payload);
  await enqueueSystemHooks(trx, payload.object_kind, systemPushPayload(payload));
}

/** Project#owner: the namespace's user, or the group itself (which has no email: GitLab sent ""). */
async function projectOwner(
  trx: Executor,
  namespace: HookNamespace & { type: string | null; owner_id: number | null },
) {
  if (namespace.type === 'Group' || namespace.owner_id === null) return { name: namespace.name, email: null };
  const user = await findUserById(trx, namespace.owner_id);
  return { name: user?.name ?? namespace.name, email: user?.email ?? null };
}

type HookProjectNamespace = HookNamespace & { type: string | null; owner_id: number | null };

/**
 * A project's creation (Projects::CreateService#after_create_actions): project_create, then
 * user_add_to_team for the creator's master membership of a personal project.
 */
export async function announceProjectCreate(
  trx: Executor,
  project: HookProject,
  namespace: HookProjectNamespace,
  creatorMember: MembershipRow | null,
  creator: Omit<HookUser, 'created_at' | 'updated_at'>,
): Promise<void> {
  if (!(await repo.anySystemHook(trx))) return;
  await announceProject(trx, 'project_create', project, namespace, await projectOwner(trx, namespace));
  if (creatorMember) await announceMembership(trx, 'create', creatorMember, creator);
}

/** project_rename (the path changed) or project_transfer (the namespace changed), with the old full path. */
export async function announceProjectMove(
  trx: Executor,
  eventName: 'project_rename' | 'project_transfer',
  project: HookProject,
  namespace: HookProjectNamespace,
  oldPathWithNamespace: string,
): Promise<void> {
  if (!(await repo.anySystemHook(trx))) return;
  const owner = await projectOwner(trx, namespace);
  await announceProject(trx, eventName, project, namespace, owner, oldPathWithNamespace);
}

/**
 * A project's deletion (Projects::DestroyService: team.truncate, then the project): user_remove_from_team
 * for each member, then project_destroy. Call before the rows go.
 */
export async function announceProjectDestroy(
  trx: Executor,
  project: HookProject,
  namespace: HookProjectNamespace,
): Promise<void> {
  if (!(await repo.anySystemHook(trx))) return;
  for (const member of await repo.membersOfSource(trx, 'Project', project.id)) {
    const user = { id: member.user_id, name: member.name, username: member.username, email: member.email };
    await announceProjectMember(trx, 'user_remove_from_team', member, project, namespace, {
      ...user,
      created_at: member.created_at,
      updated_at: member.updated_at,
    });
  }
  await announceProject(trx, 'project_destroy', project, namespace, await projectOwner(trx, namespace));
}

/** announceProjectDestroy for a project known by id (its row is read only when system hooks exist). */
export async function announceProjectDestroyById(trx: Executor, projectId: number): Promise<void> {
  if (!(await repo.anySystemHook(trx))) return;
  const record = await findProjectRecordById(trx, projectId);
  if (record) await announceProjectDestroy(trx, record.project, record.namespace);
}

/** key_create / key_destroy for a user's SSH key (Key's after_create / after_destroy callbacks). */
export async function announceUserKey(
  trx: Executor,
  change: 'create' | 'destroy',
  key: HookKey & { user_id: number },
): Promise<void> {
  if (!(await repo.anySystemHook(trx))) return;
  const user = await findUserById(trx, key.user_id);
  await announceKey(trx, change === 'create' ? 'key_create' : 'key_destroy', key, user ?? null);
}

/** A project or group membership row as the members table holds it. */
export interface MembershipRow {
  source_type: 'Project' | 'Namespace';
  source_id: number;
  access_level: number;
  created_at: string;
  updated_at: string;
}

/**
 * user_add_to_team / user_remove_from_team (project) or user_add_to_group / user_remove_from_group (group)
 * for one membership, as GitLab's Member callbacks sent them.
 */
export async function announceMembership(
  trx: Executor,
  change: 'create' | 'destroy',
  member: MembershipRow,
  user: Omit<HookUser, 'created_at' | 'updated_at'>,
): Promise<void> {
  if (!(await repo.anySystemHook(trx))) return;
  const who = { ...user, created_at: member.created_at, updated_at: member.updated_at };
  if (member.source_type === 'Project') {
    const record = await findProjectRecordById(trx, member.source_id);
    if (!record) return;
    const event = change === 'create' ? 'user_add_to_team' : 'user_remove_from_team';
    await announceProjectMember(trx, event, member, record.project, record.namespace, who);
  } else {
    const group = await findNamespaceById(trx, member.source_id);
    if (!group) return;
    const event = change === 'create' ? 'user_add_to_group' : 'user_remove_from_group';
    await announceGroupMember(trx, event, member, group, who);
  }
}

/**
 * A user's deletion as GitLab 8.13 announced it (User#destroy): key_destroy for each key and a removal
 * for each membership (dependent: :destroy callbacks), then user_destroy. Call before the rows go.
 */
export async function announceUserDestroy(trx: Executor, user: HookUser): Promise<void> {
  if (!(await repo.anySystemHook(trx))) return;
  for (const key of await repo.keysOfUser(trx, user.id)) {
    await announceKey(trx, 'key_destroy', key, user);
  }
  for (const member of await repo.membershipsOfUser(trx, user.id)) {
    await announceMembership(trx, 'destroy', member, user);
  }
  await announceUser(trx, 'user_destroy', user);
}

/**
 * A group's creation (Group after_create, then add_owner): group_create — whose owner GitLab sent as null,
 * groups having no owner_id — then user_add_to_group for the creator's membership.
 */
export async function announceGroupCreate(
  trx: Executor,
  group: HookGroup,
  creatorMember: MembershipRow,
  creator: Omit<HookUser, 'created_at' | 'updated_at'>,
): Promise<void> {
  if (!(await repo.anySystemHook(trx))) return;
  await announceGroup(trx, 'group_create', group, null);
  await announceMembership(trx, 'create', creatorMember, creator);
}

/** A group's deletion: user_remove_from_group for each member, then group_destroy. Call before the rows go. */
export async function announceGroupDestroy(trx: Executor, group: HookGroup): Promise<void> {
  if (!(await repo.anySystemHook(trx))) return;
  for (const member of await repo.membersOfSource(trx, 'Namespace', group.id)) {
    const user = { id: member.user_id, name: member.name, username: member.username, email: member.email };
    await announceGroupMember(trx, 'user_remove_from_group', member, group, {
      ...user,
      created_at: member.created_at,
      updated_at: member.updated_at,
    });
  }
  await announceGroup(trx, 'group_destroy', group, null);
}

// ---- hook management

/** WebHook's `url: true` validation: an http(s) URL with a host, after stripping blanks. */
export function isValidHookUrl(url: string): boolean {
  const text = url.trim();
  if (text === '' || /\s/.test(text)) return false;
  try {
    const parsed = new URL(text);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

export async function createSystemHook(deps: Deps, url: string | undefined): Promise<SystemHookRow> {
  if (url === undefined) throw paramsMissing('url');
  // GitLab 8.13 answered an invalid URL with a bare not_found! (reference README row 31).
  if (!isValidHookUrl(url)) throw notFound();
  const at = now();
  return repo.insertSystemHook(deps.db.kysely, {
    url: url.trim(),
    push_events: 1,
    tag_push_events: 0,
    enable_ssl_verification: 1,
    created_at: at,
    updated_at: at,
  });
}

/** GET /hooks/:id: queue the fixed sample for this hook only and answer it (failures are not reported). */
export async function testSystemHook(deps: Deps, id: number) {
  const hook = await repo.findSystemHook(deps.db.kysely, id);
  if (!hook) throw recordNotFound();
  const payload = systemHookTestPayload();
  await repo.insertDelivery(deps.db.kysely, 'system', hook.id, {
    event: SYSTEM_HOOK_EVENT,
    payload: JSON.stringify(payload),
    at: now(),
  });
  wakeHookWorkers();
  return payload;
}

export async function destroySystemHook(deps: Deps, id: number): Promise<SystemHookRow> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const hook = await repo.findSystemHook(trx, id);
    if (!hook) throw notFound('System hook');
    await repo.deleteDeliveriesOfHook(trx, 'system', id);
    await repo.deleteSystemHook(trx, id);
    return hook;
  });
}

export interface ProjectHookAttributes {
  url?: string;
  push_events?: boolean;
  issues_events?: boolean;
  merge_requests_events?: boolean;
  tag_push_events?: boolean;
  note_events?: boolean;
  build_events?: boolean;
  pipeline_events?: boolean;
  wiki_page_events?: boolean;
  enable_ssl_verification?: boolean;
}

const SWITCHES = [
  'push_events',
  'issues_events',
  'merge_requests_events',
  'tag_push_events',
  'note_events',
  'build_events',
  'pipeline_events',
  'wiki_page_events',
  'enable_ssl_verification',
] as const;

function switches(attributes: ProjectHookAttributes) {
  const values: Partial<Record<(typeof SWITCHES)[number], 0 | 1>> = {};
  for (const name of SWITCHES) {
    const value = attributes[name];
    if (value !== undefined) values[name] = value ? 1 : 0;
  }
  return values;
}

const invalidUrl = () => new ApiError(422, { error: 'Invalid url given' });

export async function createProjectHook(
  deps: Deps,
  projectId: number,
  url: string,
  attributes: ProjectHookAttributes,
): Promise<ProjectHookRow> {
  if (!isValidHookUrl(url)) throw invalidUrl();
  const at = now();
  return repo.insertProjectHook(deps.db.kysely, {
    project_id: projectId,
    url: url.trim(),
    push_events: 1,
    issues_events: 0,
    confidential_issues_events: 0,
    merge_requests_events: 0,
    tag_push_events: 0,
    note_events: 0,
    build_events: 0,
    pipeline_events: 0,
    wiki_page_events: 0,
    enable_ssl_verification: 1,
    ...switches(attributes),
    created_at: at,
    updated_at: at,
  });
}

export async function findProjectHookOr404(deps: Deps, projectId: number, hookId: number | undefined) {
  const hook =
    hookId === undefined ? undefined : await repo.findProjectHook(deps.db.kysely, projectId, hookId);
  if (!hook) throw recordNotFound();
  return hook;
}

export async function updateProjectHook(
  deps: Deps,
  hook: ProjectHookRow,
  url: string,
  attributes: ProjectHookAttributes,
): Promise<ProjectHookRow> {
  if (!isValidHookUrl(url)) throw invalidUrl();
  return repo.updateProjectHook(deps.db.kysely, hook.id, {
    url: url.trim(),
    ...switches(attributes),
    updated_at: now(),
  });
}

/** Idempotent (SPEC, reference README row 30): the deleted hook, or null when there was none. */
export async function destroyProjectHook(
  deps: Deps,
  projectId: number,
  hookId: number | undefined,
): Promise<ProjectHookRow | null> {
  if (hookId === undefined) return null;
  return deps.db.kysely.transaction().execute(async (trx) => {
    const hook = await repo.findProjectHook(trx, projectId, hookId);
    if (!hook) return null;
    await repo.deleteDeliveriesOfHook(trx, 'project', hook.id);
    await repo.deleteProjectHook(trx, projectId, hook.id);
    return hook;
  });
}

/** Removes a project's hooks and their pending deliveries; the projects service calls it on delete. */
export function deleteProjectHooks(trx: Executor, projectId: number): Promise<void> {
  return repo.deleteProjectHooks(trx, projectId);
}

// ---- deliveries (our own admin endpoints)

export async function resendDelivery(deps: Deps, kind: HookKind, hookId: number, deliveryId: number) {
  const original = await repo.findDeliveryOfHook(deps.db.kysely, kind, hookId, deliveryId);
  if (!original) throw notFound('Hook delivery');
  const copy = await repo.insertDelivery(deps.db.kysely, kind, hookId, {
    event: original.event,
    payload: original.payload,
    at: now(),
  });
  wakeHookWorkers();
  return copy;
}
