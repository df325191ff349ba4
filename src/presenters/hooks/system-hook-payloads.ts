// The bodies of system hook events, field for field and in the order GitLab 8.13's SystemHooksService
// built them. Inputs are small structural types so every area can pass its own rows.
import { xmlschema } from './hook-attrs.ts';
import { visibilityName } from '../../domain/types.ts';

export interface HookProject {
  id: number;
  name: string;
  path: string;
  description: string | null;
  visibility_level: number;
  default_branch: string | null;
  created_at: string;
  updated_at: string;
}

/** The project's namespace: a user's personal namespace or a group. */
export interface HookNamespace {
  name: string;
  path: string;
}

/** The user of a membership event (the event's stamps are the membership's). */
export interface HookMemberUser {
  id: number;
  name: string;
  username: string;
  email: string;
}

export interface HookUser extends HookMemberUser {
  created_at: string;
  updated_at: string;
}

/** A project's owner as GitLab's Project#owner saw it: the user, or the group (which has no email). */
export interface HookOwner {
  name: string;
  email: string | null;
}

/** Gitlab::Access#human_access. */
function humanAccess(level: number): string {
  switch (level) {
    case 10:
      return 'Guest';
    case 20:
      return 'Reporter';
    case 30:
      return 'Developer';
    case 40:
      return 'Master';
    case 50:
      return 'Owner';
    default:
      return String(level);
  }
}

function stamps(eventName: string, model: { created_at: string; updated_at: string }) {
  return {
    event_name: eventName,
    created_at: xmlschema(model.created_at),
    updated_at: xmlschema(model.updated_at),
  };
}

// ---- system hook events (header "System Hook")

export type ProjectSystemEvent = 'project_create' | 'project_destroy' | 'project_rename' | 'project_transfer';

export function projectSystemPayload(
  eventName: ProjectSystemEvent,
  project: HookProject,
  namespace: HookNamespace,
  owner: HookOwner,
  oldPathWithNamespace?: string,
) {
  const payload: Record<string, unknown> = {
    ...stamps(eventName, project),
    name: project.name,
    path: project.path,
    path_with_namespace: `${namespace.path}/${project.path}`,
    project_id: project.id,
    owner_name: owner.name,
    // A group owns no email: GitLab sent "" for group projects.
    owner_email: owner.email ?? '',
    project_visibility: visibilityName(project.visibility_level),
  };
  if (eventName === 'project_rename' || eventName === 'project_transfer') {
    payload.old_path_with_namespace = oldPathWithNamespace ?? null;
  }
  return payload;
}

export function userSystemPayload(eventName: 'user_create' | 'user_destroy', user: HookUser) {
  return {
    ...stamps(eventName, user),
    name: user.name,
    email: user.email,
    user_id: user.id,
    username: user.username,
  };
}

/** A project or group membership row (its own timestamps and access level). */
export interface HookMember {
  access_level: number;
  created_at: string;
  updated_at: string;
}

export function projectMemberSystemPayload(
  eventName: 'user_add_to_team' | 'user_remove_from_team',
  member: HookMember,
  project: HookProject,
  namespace: HookNamespace,
  user: HookMemberUser,
) {
  return {
    ...stamps(eventName, member),
    project_name: project.name,
    project_path: project.path,
    project_path_with_namespace: `${namespace.path}/${project.path}`,
    project_id: project.id,
    user_username: user.username,
    user_name: user.name,
    user_email: user.email,
    user_id: user.id,
    access_level: humanAccess(member.access_level),
    project_visibility: visibilityName(project.visibility_level),
  };
}

export interface HookGroup {
  id: number;
  name: string;
  path: string;
  created_at: string;
  updated_at: string;
}

export function groupMemberSystemPayload(
  eventName: 'user_add_to_group' | 'user_remove_from_group',
  member: HookMember,
  group: HookGroup,
  user: HookMemberUser,
) {
  return {
    ...stamps(eventName, member),
    group_name: group.name,
    group_path: group.path,
    group_id: group.id,
    user_username: user.username,
    user_name: user.name,
    user_email: user.email,
    user_id: user.id,
    group_access: humanAccess(member.access_level),
  };
}

/** GitLab 8.13 sent owner_name and owner_email as null for groups (a group row has no owner). */
export function groupSystemPayload(eventName: 'group_create' | 'group_destroy', group: HookGroup) {
  return {
    ...stamps(eventName, group),
    name: group.name,
    path: group.path,
    group_id: group.id,
    owner_name: null,
    owner_email: null,
  };
}

export interface HookKey {
  id: number;
  key: string;
  created_at: string;
  updated_at: string;
}

/** `username` only when the key belongs to a user (deploy keys have none). */
export function keySystemPayload(
  eventName: 'key_create' | 'key_destroy' | 'deploykey_create' | 'deploykey_destroy',
  key: HookKey,
  user: { username: string } | null,
) {
  const payload: Record<string, unknown> = { ...stamps(eventName, key), key: key.key, id: key.id };
  if (user) payload.username = user.username;
  return payload;
}

/** What GET /hooks/:id sends and answers (lib/api/system_hooks.rb): a fixed sample, not real data. */
export function systemHookTestPayload() {
  return {
    event_name: 'project_create',
    name: 'Ruby',
    path: 'ruby',
    project_id: 1,
    owner_name: 'Someone',
    owner_email: 'example@gitlabhq.com',
  };
}
