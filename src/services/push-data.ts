// GitLab's push / tag push payload (Gitlab::DataBuilder::Push, reference/internals.md §1.3): stored as
// the `data` of push events and sent to push and tag push hooks.
import type { ProjectRecord } from '../db/repositories/projects.ts';
import type { UserRow } from '../db/repositories/users.ts';
import { avatarUrl } from '../presenters/user.ts';
import { xmlschema, type ChangedFiles, type Commit } from '../git/commits.ts';

/** GitLab sent at most this many commits (the newest ones, oldest first) with a push. */
export const PUSH_COMMITS_LIMIT = 20;

export function projectHookUrls(baseUrl: string, record: ProjectRecord) {
  const fullPath = `${record.namespace.path}/${record.project.path}`;
  const host = new URL(baseUrl).hostname;
  return {
    fullPath,
    webUrl: `${baseUrl}/${fullPath}`,
    sshUrl: `git@${host}:${fullPath}.git`,
    httpUrl: `${baseUrl}/${fullPath}.git`,
  };
}

/** Project#hook_attrs(backward: true): the current fields, then the legacy ones. */
export function projectHookAttrs(baseUrl: string, record: ProjectRecord) {
  const urls = projectHookUrls(baseUrl, record);
  return {
    name: record.project.name,
    description: record.project.description ?? '',
    web_url: urls.webUrl,
    avatar_url: null,
    git_ssh_url: urls.sshUrl,
    git_http_url: urls.httpUrl,
    namespace: record.namespace.name,
    visibility_level: record.project.visibility_level,
    path_with_namespace: urls.fullPath,
    default_branch: record.project.default_branch,
    homepage: urls.webUrl,
    url: urls.sshUrl,
    ssh_url: urls.sshUrl,
    http_url: urls.httpUrl,
  };
}

/** Commit#hook_attrs(with_changed_files: true). */
export function commitHookAttrs(
  baseUrl: string,
  record: ProjectRecord,
  commit: Commit,
  files: ChangedFiles | undefined,
) {
  const { webUrl } = projectHookUrls(baseUrl, record);
  return {
    id: commit.id,
    message: commit.message,
    timestamp: xmlschema(commit.committedDate),
    url: `${webUrl}/commit/${commit.id}`,
    author: { name: commit.authorName, email: commit.authorEmail },
    added: files?.added ?? [],
    modified: files?.modified ?? [],
    removed: files?.removed ?? [],
  };
}

export interface PushDataInput {
  baseUrl: string;
  record: ProjectRecord;
  user: UserRow;
  before: string;
  after: string;
  ref: string;
  /** null on deletion; the new sha for branches; the tagged commit for tags. */
  checkoutSha: string | null;
  /** Tag annotation for tag pushes, null otherwise. */
  message: string | null;
  /** The last PUSH_COMMITS_LIMIT pushed commits, oldest first. */
  commits: Commit[];
  files: Map<string, ChangedFiles>;
  totalCommitsCount: number;
}

export function buildPushData(input: PushDataInput) {
  const kind = input.ref.startsWith('refs/tags/') ? 'tag_push' : 'push';
  const project = projectHookAttrs(input.baseUrl, input.record);
  return {
    object_kind: kind,
    event_name: kind,
    before: input.before,
    after: input.after,
    ref: input.ref,
    checkout_sha: input.checkoutSha,
    message: input.message,
    user_id: input.user.id,
    user_name: input.user.name,
    user_email: input.user.email,
    user_avatar: avatarUrl(input.user.email),
    project_id: input.record.project.id,
    project,
    commits: input.commits.map((commit) =>
      commitHookAttrs(input.baseUrl, input.record, commit, input.files.get(commit.id)),
    ),
    total_commits_count: input.totalCommitsCount,
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

export type PushData = ReturnType<typeof buildPushData>;
