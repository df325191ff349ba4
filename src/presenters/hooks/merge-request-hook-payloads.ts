// The merge request hook body (Issuable#to_hook_data + MergeRequest#hook_attrs), times as Ruby's
// Time#to_s, and the MR attributes a note hook embeds.
import { presentMergeRequestRow } from '../api-v3/merge-request.ts';
import { presentUserBasic } from '../api-v3/user.ts';
import { projectHookAttrs, xmlschema } from './hook-attrs.ts';
import { hookTime } from './ci-hook-payloads.ts';
import { mergeRequestWebUrl, projectUrls } from '../../domain/paths.ts';
import { isWorkInProgress } from '../../domain/titles.ts';
import type { Commit } from '../../git/commits.ts';
import type { MergeRequestRow, ProjectRecord, UserRow } from '../../db/types.ts';

export type MergeRequestHookAction = 'open' | 'update' | 'close' | 'reopen' | 'merge';

export interface MergeRequestHookInput {
  mr: MergeRequestRow;
  target: ProjectRecord;
  source: ProjectRecord | undefined;
  user: UserRow;
  assignee: UserRow | undefined;
  lastCommit: Commit | undefined;
  action: MergeRequestHookAction;
  oldrev?: string;
}

/**
 * The MR's columns with source, target, last_commit and work_in_progress, times as Ruby's Time#to_s (as
 * they left Sidekiq): the hook's object_attributes before url and action, and a note hook's merge_request.
 */
export function mergeRequestHookAttributes(
  input: Pick<MergeRequestHookInput, 'mr' | 'target' | 'source' | 'lastCommit'>,
  baseUrl: string,
  sshBase?: string,
) {
  const { mr, target, source, lastCommit } = input;
  return {
    ...presentMergeRequestRow(mr),
    created_at: hookTime(mr.created_at),
    updated_at: hookTime(mr.updated_at),
    locked_at: hookTime(mr.locked_at),
    deleted_at: hookTime(mr.deleted_at),
    source: source ? projectHookAttrs(baseUrl, source, sshBase) : null,
    target: projectHookAttrs(baseUrl, target, sshBase),
    last_commit: lastCommit
      ? {
          id: lastCommit.id,
          message: lastCommit.message,
          timestamp: xmlschema(lastCommit.committedDate),
          url: `${projectUrls(baseUrl, source ?? target).webUrl}/commit/${lastCommit.id}`,
          author: { name: lastCommit.authorName, email: lastCommit.authorEmail },
        }
      : null,
    work_in_progress: isWorkInProgress(mr.title),
  };
}

/** The Merge Request Hook body. */
export function presentMergeRequestHook(input: MergeRequestHookInput, baseUrl: string, sshBase?: string) {
  const { mr, target, user, assignee } = input;
  const targetAttrs = projectHookAttrs(baseUrl, target, sshBase);
  const attributes = {
    ...mergeRequestHookAttributes(input, baseUrl, sshBase),
    url: mergeRequestWebUrl(baseUrl, target, mr.iid),
    action: input.action,
    ...(input.oldrev ? { oldrev: input.oldrev } : {}),
  };
  const userAttrs = presentUserBasic(user, baseUrl);
  return {
    object_kind: 'merge_request',
    user: { name: userAttrs.name, username: userAttrs.username, avatar_url: userAttrs.avatar_url },
    project: targetAttrs,
    object_attributes: attributes,
    repository: {
      name: targetAttrs.name,
      url: targetAttrs.url,
      description: targetAttrs.description,
      homepage: targetAttrs.homepage,
    },
    ...(assignee
      ? {
          assignee: {
            name: assignee.name,
            username: assignee.username,
            avatar_url: presentUserBasic(assignee, baseUrl).avatar_url,
          },
        }
      : {}),
  };
}
