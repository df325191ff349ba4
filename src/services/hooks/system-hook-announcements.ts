// System hook events (GitLab's SystemHooksService): the lifecycle of projects, users, memberships,
// groups and keys, announced by the services of every area inside their own transactions. They live in one
// module because they cascade across areas (a user's deletion announces its keys and memberships, a
// project's its members) and share one rule: with no system hook, nothing is read or built.
import { anySystemHook } from '../../db/repositories/system-hooks.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { findNamespaceById } from '../../db/repositories/namespaces.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { keysOfUser } from '../../db/repositories/keys.ts';
import { membershipsOfUser, membersWithUsersOfSource } from '../../db/repositories/members.ts';
import {
  groupMemberSystemPayload,
  groupSystemPayload,
  keySystemPayload,
  projectMemberSystemPayload,
  projectSystemPayload,
  userSystemPayload,
  type HookGroup,
  type HookKey,
  type HookMemberUser,
  type HookNamespace,
  type HookOwner,
  type HookProject,
  type HookUser,
  type ProjectSystemEvent,
} from '../../presenters/hooks/system-hook-payloads.ts';
import { enqueueSystemHooks } from './hook-outbox.ts';
import type { Executor } from '../../db/types.ts';

type HookProjectNamespace = HookNamespace & { type: string | null; owner_id: number | null };

/** A project or group membership row as the members table holds it. */
export interface MembershipRow {
  source_type: 'Project' | 'Namespace';
  source_id: number;
  access_level: number;
  created_at: string;
  updated_at: string;
}

// ---- projects

/**
 * A project's creation (Projects::CreateService#after_create_actions): project_create, then
 * user_add_to_team for the creator's master membership of a personal project.
 */
export async function announceProjectCreate(
  trx: Executor,
  project: HookProject,
  namespace: HookProjectNamespace,
  creatorMember: MembershipRow | null,
  creator: HookMemberUser,
): Promise<void> {
  if (!(await anySystemHook(trx))) return;
  await announceProject(trx, 'project_create', project, namespace);
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
  if (!(await anySystemHook(trx))) return;
  await announceProject(trx, eventName, project, namespace, oldPathWithNamespace);
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
  if (!(await anySystemHook(trx))) return;
  for (const member of await membersWithUsersOfSource(trx, 'Project', project.id)) {
    const payload = projectMemberSystemPayload(
      'user_remove_from_team',
      member,
      project,
      namespace,
      memberUser(member),
    );
    await enqueueSystemHooks(trx, 'user_remove_from_team', payload);
  }
  await announceProject(trx, 'project_destroy', project, namespace);
}

/** announceProjectDestroy for a project known by id (its row is read only when system hooks exist). */
export async function announceProjectDestroyById(trx: Executor, projectId: number): Promise<void> {
  if (!(await anySystemHook(trx))) return;
  const record = await findProjectRecordById(trx, projectId);
  if (record) await announceProjectDestroy(trx, record.project, record.namespace);
}

async function announceProject(
  trx: Executor,
  eventName: ProjectSystemEvent,
  project: HookProject,
  namespace: HookProjectNamespace,
  oldPathWithNamespace?: string,
): Promise<void> {
  const owner = await projectOwner(trx, namespace);
  const payload = projectSystemPayload(eventName, project, namespace, owner, oldPathWithNamespace);
  await enqueueSystemHooks(trx, eventName, payload);
}

/** Project#owner: the namespace's user, or the group itself (which has no email: GitLab sent ""). */
async function projectOwner(trx: Executor, namespace: HookProjectNamespace): Promise<HookOwner> {
  if (namespace.type === 'Group' || namespace.owner_id === null) return { name: namespace.name, email: null };
  const user = await findUserById(trx, namespace.owner_id);
  return { name: user?.name ?? namespace.name, email: user?.email ?? null };
}

// ---- users and their keys

export async function announceUserCreate(trx: Executor, user: HookUser): Promise<void> {
  await enqueueSystemHooks(trx, 'user_create', userSystemPayload('user_create', user));
}

/**
 * A user's deletion as GitLab 8.13 announced it (User#destroy): key_destroy for each key and a removal
 * for each membership (dependent: :destroy callbacks), then user_destroy. Call before the rows go.
 */
export async function announceUserDestroy(trx: Executor, user: HookUser): Promise<void> {
  if (!(await anySystemHook(trx))) return;
  for (const key of await keysOfUser(trx, user.id)) {
    await enqueueSystemHooks(trx, 'key_destroy', keySystemPayload('key_destroy', key, user));
  }
  for (const member of await membershipsOfUser(trx, user.id)) {
    await announceMembership(trx, 'destroy', member, user);
  }
  await enqueueSystemHooks(trx, 'user_destroy', userSystemPayload('user_destroy', user));
}

/**
 * key_create / key_destroy for a user's SSH key, deploykey_create / deploykey_destroy for a deploy key
 * (Key's after_create / after_destroy callbacks; the event is named after the model's class).
 */
export async function announceUserKey(
  trx: Executor,
  change: 'create' | 'destroy',
  key: HookKey & { user_id: number | null; type?: string | null },
): Promise<void> {
  if (!(await anySystemHook(trx))) return;
  const user = key.user_id === null ? undefined : await findUserById(trx, key.user_id);
  const prefix = key.type === 'DeployKey' ? 'deploykey' : 'key';
  const eventName = `${prefix}_${change}` as const;
  await enqueueSystemHooks(trx, eventName, keySystemPayload(eventName, key, user ?? null));
}

// ---- memberships

/**
 * user_add_to_team / user_remove_from_team (project) or user_add_to_group / user_remove_from_group (group)
 * for one membership, as GitLab's Member callbacks sent them.
 */
export async function announceMembership(
  trx: Executor,
  change: 'create' | 'destroy',
  member: MembershipRow,
  user: HookMemberUser,
): Promise<void> {
  if (!(await anySystemHook(trx))) return;
  if (member.source_type === 'Project') {
    const record = await findProjectRecordById(trx, member.source_id);
    if (!record) return;
    const eventName = change === 'create' ? 'user_add_to_team' : 'user_remove_from_team';
    const payload = projectMemberSystemPayload(eventName, member, record.project, record.namespace, user);
    await enqueueSystemHooks(trx, eventName, payload);
  } else {
    const group = await findNamespaceById(trx, member.source_id);
    if (!group) return;
    const eventName = change === 'create' ? 'user_add_to_group' : 'user_remove_from_group';
    await enqueueSystemHooks(trx, eventName, groupMemberSystemPayload(eventName, member, group, user));
  }
}

function memberUser(member: { user_id: number; name: string; username: string; email: string }) {
  return { id: member.user_id, name: member.name, username: member.username, email: member.email };
}

// ---- groups

/**
 * A group's creation (Group after_create, then add_owner): group_create, then user_add_to_group for the
 * creator's membership.
 */
export async function announceGroupCreate(
  trx: Executor,
  group: HookGroup,
  creatorMember: MembershipRow,
  creator: HookMemberUser,
): Promise<void> {
  if (!(await anySystemHook(trx))) return;
  await enqueueSystemHooks(trx, 'group_create', groupSystemPayload('group_create', group));
  await announceMembership(trx, 'create', creatorMember, creator);
}

/** A group's deletion: user_remove_from_group for each member, then group_destroy. Call before the rows go. */
export async function announceGroupDestroy(trx: Executor, group: HookGroup): Promise<void> {
  if (!(await anySystemHook(trx))) return;
  for (const member of await membersWithUsersOfSource(trx, 'Namespace', group.id)) {
    const payload = groupMemberSystemPayload('user_remove_from_group', member, group, memberUser(member));
    await enqueueSystemHooks(trx, 'user_remove_from_group', payload);
  }
  await enqueueSystemHooks(trx, 'group_destroy', groupSystemPayload('group_destroy', group));
}
