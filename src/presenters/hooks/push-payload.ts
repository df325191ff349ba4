// GitLab's push and tag push payload (Gitlab::DataBuilder::Push): the `data` of push events, the body
// push and tag push hooks receive, and — without its commits — what system hooks receive.
import { avatarUrl } from '../api-v3/user.ts';
import { commitHookAttrs, projectHookAttrs, repositoryHookAttrs } from './hook-attrs.ts';
import type { ChangedFiles, Commit } from '../../git/commits.ts';
import type { ProjectRecord, UserRow } from '../../db/types.ts';

export interface PushPayloadInput {
  baseUrl: string;
  /** Where ssh clone URLs start (the SSH settings). */
  sshBase?: string;
  record: ProjectRecord;
  user: UserRow;
  before: string;
  after: string;
  ref: string;
  /** null on deletion; the new sha for branches; the tagged commit for tags. */
  checkoutSha: string | null;
  /** Tag annotation for tag pushes, null otherwise. */
  message: string | null;
  /** The commits the payload lists (GitLab sent the newest 20 at most), oldest first. */
  commits: Commit[];
  files: Map<string, ChangedFiles>;
  totalCommitsCount: number;
}

export function presentPushPayload(input: PushPayloadInput) {
  const kind = input.ref.startsWith('refs/tags/') ? 'tag_push' : 'push';
  const project = projectHookAttrs(input.baseUrl, input.record, input.sshBase);
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
    user_avatar: avatarUrl(input.user, input.baseUrl),
    project_id: input.record.project.id,
    project,
    commits: input.commits.map((commit) =>
      commitHookAttrs(input.baseUrl, input.record, commit, input.files.get(commit.id)),
    ),
    total_commits_count: input.totalCommitsCount,
    repository: repositoryHookAttrs(project),
  };
}

export type PushPayload = ReturnType<typeof presentPushPayload>;

/**
 * What system hooks get for a push: the same payload without commits (8.13 built it in the merge-request
 * refresh worker with []), and for tags with message "" (git_tag_push_service.rb).
 */
export function systemPushPayload(payload: PushPayload): PushPayload {
  return {
    ...payload,
    message: payload.object_kind === 'tag_push' ? '' : payload.message,
    commits: [],
    total_commits_count: 0,
  };
}
