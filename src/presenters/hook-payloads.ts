// The JSON bodies Labrador POSTs to hooks, field for field and in the order GitLab 8.13 built them
// (reference/internals.md §1.3 and §2; app/services/system_hooks_service.rb, lib/gitlab/data_builder/push.rb).
// Inputs are small structural types so every area can pass its own rows.
import { avatarUrl } from './user.ts';

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

export interface HookUser {
  id: number;
  name: string;
  username: string;
  email: string;
  created_at: string;
  updated_at: string;
}

/** A project's owner as GitLab's Project#owner saw it: the user, or the group (which has no email). */
export interface HookOwner {
  name: string;
  email: string | null;
}

/** ActiveSupport's Time#xmlschema: ISO 8601 without fractions (our stored stamps carry milliseconds). */
export function xmlschema(iso: string): string {
  return iso.replace(/\.\d+(?=Z|[+-]\d\d:\d\d$)/, '');
}

export function visibilityName(level: number): 'private' | 'internal' | 'public' {
  return level >= 20 ? 'public' : level >= 10 ? 'internal' : 'private';
}

/** Gitlab::Access#human_access. */
export function humanAccess(level: number): string {
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
  user: HookUser,
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
  user: HookUser,
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

/** Group#owner was the first owner member; a group without one sent nulls. */
export function groupSystemPayload(
  eventName: 'group_create' | 'group_destroy',
  group: HookGroup,
  owner: { name: string; email: string } | null,
) {
  return {
    ...stamps(eventName, group),
    name: group.name,
    path: group.path,
    group_id: group.id,
    owner_name: owner?.name ?? null,
    owner_email: owner?.email ?? null,
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

// ---- push and tag push (project hooks "Push Hook"/"Tag Push Hook", system hooks "System Hook")

export interface HookCommit {
  id: string;
  message: string;
  /** The commit date, ISO 8601 as git prints it (%cI). */
  timestamp: string;
  author: { name: string; email: string };
  added: string[];
  modified: string[];
  removed: string[];
}

export interface PushInput {
  project: HookProject;
  namespace: HookNamespace;
  pusher: { id: number; name: string; email: string };
  before: string;
  after: string;
  /** Full ref: refs/heads/… or refs/tags/…. */
  ref: string;
  /** Branch: the new sha; tag: the commit the tag points to; null when the ref was deleted. */
  checkoutSha: string | null;
  /** Tag annotation message for tag pushes; null for branches. */
  message: string | null;
  /** The pushed commits, oldest first. Only the last 20 are sent (callers may pass just those). */
  commits: HookCommit[];
  /** How many commits were pushed (defaults to commits.length). */
  totalCommitsCount?: number;
}

export interface HookUrls {
  /** LABRADOR_EXTERNAL_URL. */
  externalUrl: string;
}

/** Project#hook_attrs: `backward` adds the legacy homepage/url/ssh_url/http_url keys. */
export function projectHookAttrs(
  project: HookProject,
  namespace: HookNamespace,
  urls: HookUrls,
  backward = true,
) {
  const pathWithNamespace = `${namespace.path}/${project.path}`;
  const webUrl = `${urls.externalUrl}/${pathWithNamespace}`;
  const sshUrl = `git@${new URL(urls.externalUrl).hostname}:${pathWithNamespace}.git`;
  const httpUrl = `${webUrl}.git`;
  const attrs: Record<string, unknown> = {
    name: project.name,
    description: project.description,
    web_url: webUrl,
    avatar_url: null,
    git_ssh_url: sshUrl,
    git_http_url: httpUrl,
    namespace: namespace.name,
    visibility_level: project.visibility_level,
    path_with_namespace: pathWithNamespace,
    default_branch: project.default_branch,
  };
  if (backward) {
    Object.assign(attrs, { homepage: webUrl, url: sshUrl, ssh_url: sshUrl, http_url: httpUrl });
  }
  return attrs;
}

export function isTagRef(ref: string): boolean {
  return ref.startsWith('refs/tags/');
}

/** Gitlab::DataBuilder::Push.build. */
export function pushPayload(input: PushInput, urls: HookUrls) {
  const type = isTagRef(input.ref) ? 'tag_push' : 'push';
  const project = projectHookAttrs(input.project, input.namespace, urls);
  const webUrl = project.web_url as string;
  const commits = input.commits.slice(-20).map((commit) => ({
    id: commit.id,
    message: commit.message,
    timestamp: commit.timestamp,
    url: `${webUrl}/commit/${commit.id}`,
    author: { name: commit.author.name, email: commit.author.email },
    added: commit.added,
    modified: commit.modified,
    removed: commit.removed,
  }));
  return {
    object_kind: type,
    event_name: type,
    before: input.before,
    after: input.after,
    ref: input.ref,
    checkout_sha: input.checkoutSha,
    message: input.message,
    user_id: input.pusher.id,
    user_name: input.pusher.name,
    user_email: input.pusher.email,
    user_avatar: avatarUrl(input.pusher.email),
    project_id: input.project.id,
    project,
    commits,
    total_commits_count: input.totalCommitsCount ?? input.commits.length,
    repository: {
      name: project.name,
      url: project.url,
      description: project.description,
      homepage: project.homepage,
      git_http_url: project.git_http_url,
      git_ssh_url: project.git_ssh_url,
      visibility_level: project.visibility_level,
    },
  };
}

/**
 * What system hooks get for a push: the same builder without commits (8.13 built it in the merge-request
 * refresh worker with []), and for tags with message "" (git_tag_push_service.rb).
 */
export function systemPushPayload(input: PushInput, urls: HookUrls) {
  const tag = isTagRef(input.ref);
  return pushPayload(
    { ...input, commits: [], totalCommitsCount: 0, message: tag ? '' : input.message },
    urls,
  );
}
