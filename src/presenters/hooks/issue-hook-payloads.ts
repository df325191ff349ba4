// Issue and note hook payloads as GitLab 8.13 built them (Issuable#to_hook_data, Gitlab::DataBuilder::Note):
// the actor, the project's hook attributes, the record's columns (timestamps as Sidekiq's JSON wrote them,
// `2015-05-17 18:08:09 UTC`), the deprecated repository object, and the assignee only when there is one.
// No `labels` or `changes` in 8.13.
import { avatarUrl } from '../api-v3/user.ts';
import { projectHookAttrs } from './hook-attrs.ts';
import { issueColumns } from '../api-v3/issue.ts';
import { issueWebUrl, snippetWebUrl } from '../../domain/paths.ts';
import type { IssueRow, NoteRow, ProjectRecord, SnippetRow, UserRow } from '../../db/types.ts';

/** Time#to_s of a UTC time: what ActiveRecord stamps became in a hook's JSON. */
function hookTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** User#hook_attrs. */
export function userHookAttrs(user: UserRow, baseUrl: string) {
  return { name: user.name, username: user.username, avatar_url: avatarUrl(user, baseUrl) };
}

interface HookContext {
  baseUrl: string;
  sshBase?: string;
  record: ProjectRecord;
  actor: UserRow;
}

function envelope(context: HookContext) {
  const project = projectHookAttrs(context.baseUrl, context.record, context.sshBase);
  return {
    project,
    repository: {
      name: project.name,
      url: project.url,
      description: project.description,
      homepage: project.homepage,
    },
  };
}

export type IssueHookAction = 'open' | 'close' | 'reopen' | 'update';

export function presentIssueHookPayload(
  context: HookContext,
  issue: IssueRow,
  assignee: UserRow | null,
  action: IssueHookAction,
) {
  const { project, repository } = envelope(context);
  return {
    object_kind: 'issue',
    user: userHookAttrs(context.actor, context.baseUrl),
    project,
    object_attributes: {
      ...issueColumns(issue, null, hookTime),
      url: issueWebUrl(context.baseUrl, context.record, issue),
      action,
    },
    repository,
    ...(assignee ? { assignee: userHookAttrs(assignee, context.baseUrl) } : {}),
  };
}

/**
 * The noteable part of a note hook: its key (`issue`, `merge_request`, `commit`), its attributes and web
 * URL.
 */
export interface NoteHookNoteable {
  key: 'issue' | 'merge_request' | 'commit' | 'snippet';
  attributes: object;
  url: string;
}

/** The issue's part of its notes' hooks. */
export function issueNoteHookNoteable(
  baseUrl: string,
  record: ProjectRecord,
  issue: IssueRow,
): NoteHookNoteable {
  return {
    key: 'issue',
    attributes: issueColumns(issue, null, hookTime),
    url: issueWebUrl(baseUrl, record, issue),
  };
}

/** A project snippet's part of its notes' hooks (Snippet#hook_attrs: its columns). */
export function snippetNoteHookNoteable(
  baseUrl: string,
  record: ProjectRecord,
  snippet: SnippetRow,
): NoteHookNoteable {
  return {
    key: 'snippet',
    attributes: {
      id: snippet.id,
      title: snippet.title,
      content: snippet.content,
      author_id: snippet.author_id,
      project_id: snippet.project_id,
      created_at: hookTime(snippet.created_at),
      updated_at: hookTime(snippet.updated_at),
      file_name: snippet.file_name,
      type: snippet.type,
      visibility_level: snippet.visibility_level,
    },
    url: snippetWebUrl(baseUrl, record, snippet.id),
  };
}

export function presentNoteHookPayload(context: HookContext, note: NoteRow, noteable: NoteHookNoteable) {
  const { project, repository } = envelope(context);
  return {
    object_kind: 'note',
    user: userHookAttrs(context.actor, context.baseUrl),
    project_id: note.project_id,
    project,
    object_attributes: {
      id: note.id,
      note: note.note,
      noteable_type: note.noteable_type,
      author_id: note.author_id,
      created_at: hookTime(note.created_at),
      updated_at: hookTime(note.updated_at),
      project_id: note.project_id,
      attachment: note.attachment,
      line_code: note.line_code,
      commit_id: note.commit_id,
      noteable_id: note.noteable_id,
      system: note.system === 1,
      st_diff: null,
      updated_by_id: note.updated_by_id,
      // A comment on a line of a commit's diff was a LegacyDiffNote in 8.13.
      type: note.line_code === null ? null : 'LegacyDiffNote',
      position: null,
      original_position: null,
      resolved_at: null,
      resolved_by_id: null,
      discussion_id: null,
      original_discussion_id: null,
      url: `${noteable.url}#note_${note.id}`,
    },
    repository,
    [noteable.key]: noteable.attributes,
  };
}
