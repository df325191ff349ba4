// Notes on issues (GitLab 8.13's Notes::CreateService/UpdateService and the note destroy): a comment
// records its `commented on` event, touches the issue and queues the note hook in its transaction; a
// body that is one emoji only (`:+1:`) becomes an award on the issue instead, as 8.13 did. System notes
// cannot be edited. Notes on merge requests go the same way (a Noteable names what the note is on).
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { apiError, forbidden, notFound, type ApiError } from '../../errors.ts';
import {
  deleteNote,
  insertNote,
  resolveDiscussionNotes,
  setDiscussionType,
  updateNote,
  type NoteableKey,
} from '../../db/repositories/notes.ts';
import { updateIssue } from '../../db/repositories/issues.ts';
import { recordEvent } from '../activity/events.ts';
import { enqueueProjectHooks } from '../hooks/hook-outbox.ts';
import {
  issueNoteHookNoteable,
  presentNoteHookPayload,
  type NoteHookNoteable,
} from '../../presenters/hooks/issue-hook-payloads.ts';
import { canAdminNote } from '../../policies/issues.ts';
import { AccessLevel, EventAction } from '../../domain/types.ts';
import { isKnownEmoji, normalizeEmojiName } from '../../lib/emoji.ts';
import { ISSUE } from '../../domain/types.ts';
import { awardIn } from './award-emoji.ts';
import { mailNote } from '../mail/issuable-mails.ts';
import type { LoadedProject } from '../../http/loaders.ts';
import { recordMentions, type Mentioner } from './mentions.ts';
import type { AwardEmojiRow, Executor, IssueRow, NoteRow, UserRow } from '../../db/types.ts';

export type CreatedNote = { note: NoteRow } | { award: AwardEmojiRow };

/**
 * Where a new note goes: a thread it replies to, or a new thread (`DiscussionNote`) rather than an
 * individual note; and whether an emoji-only body still becomes an award (8.13's API and pages did;
 * v4 keeps the comment).
 */
export interface NoteThread {
  discussionId?: string;
  startsThread?: boolean;
  emojiBecomesAward?: boolean;
}

/** The type of a note in a thread (a reply, or a thread's first note). */
const DISCUSSION_NOTE = 'DiscussionNote';

/** Where a noteable's notes are found. */
export function noteableKey(noteable: Pick<Noteable, 'type' | 'id' | 'projectId' | 'commitId'>): NoteableKey {
  return noteable.id === null
    ? { type: 'Commit', projectId: noteable.projectId, commitId: noteable.commitId ?? '' }
    : { type: noteable.type, id: noteable.id };
}

/** Note#award_emoji?: one emoji and nothing else (a trailing space allowed). */
function emojiOnly(body: string): string | undefined {
  const match = /^:([a-zA-Z0-9_+-]+):\s?$/.exec(body);
  if (!match) return undefined;
  const name = normalizeEmojiName(match[1]!);
  return isKnownEmoji(name) ? name : undefined;
}

/**
 * What a note is on (an issue, a merge request or a commit): the note's noteable columns, its author (an
 * award it becomes names the awardable's), and, in the note's transaction, the touch of its updated_at that answers the hook's
 * part. A commit has no id (its notes name its sha, and the diff line for a line comment) and takes no
 * awards, so an emoji-only comment on it stays a comment, as 8.13's Note#award_emoji? had it.
 */
export interface Noteable {
  type: 'Issue' | 'MergeRequest' | 'Commit' | 'Snippet';
  id: number | null;
  commitId?: string;
  lineCode?: string | null;
  projectId: number;
  authorId: number | null;
  touch(trx: Executor, at: string): Promise<NoteHookNoteable>;
  /** What the note's references are made from (its cross-reference notes name it; its mention todos are about it). */
  mentioner?: Mentioner;
}

export function issueNoteable(deps: Deps, loaded: LoadedProject, issue: IssueRow): Noteable {
  return {
    type: ISSUE,
    id: issue.id,
    projectId: issue.project_id,
    authorId: issue.author_id,
    mentioner: { kind: 'issue', row: issue },
    touch: async (trx, at) =>
      issueNoteHookNoteable(
        deps.config.externalUrl,
        loaded,
        (await updateIssue(trx, issue.id, { updated_at: at })) ?? issue,
      ),
  };
}

/**
 * A comment on `noteable` (or the award its emoji-only body becomes), with its event and note hook. The
 * award is made as 8.13's Notes::CreateService made it: without Awardable#user_can_award?, so an author's
 * own `:+1:` counts; the same emoji twice is refused with `duplicateAward()` (the notes API's words unless
 * the caller has its own).
 */
export async function createNote(
  deps: Deps,
  viewer: UserRow,
  loaded: LoadedProject,
  noteable: Noteable,
  body: string,
  createdAt?: string,
  duplicateAward: () => ApiError = () => notFound('Note {:name=>["has already been taken"]}'),
  thread: NoteThread = {},
): Promise<CreatedNote> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const at = now();
    const emoji = thread.emojiBecomesAward === false ? undefined : emojiOnly(body);
    if (emoji !== undefined && noteable.id !== null) {
      const awardable = {
        type: noteable.type,
        id: noteable.id,
        projectId: noteable.projectId,
        authorId: noteable.authorId,
      };
      return { award: await awardIn(trx, viewer, awardable, emoji, at, duplicateAward) };
    }
    const stamp = createdAt ?? at;
    const note = await insertNote(trx, {
      project_id: noteable.projectId,
      noteable_type: noteable.type,
      noteable_id: noteable.id,
      commit_id: noteable.commitId ?? null,
      author_id: viewer.id,
      note: body,
      system: 0,
      attachment: null,
      line_code: noteable.lineCode ?? null,
      updated_by_id: null,
      created_at: stamp,
      updated_at: stamp,
      discussion_id: thread.discussionId,
      type: thread.discussionId !== undefined || thread.startsThread ? DISCUSSION_NOTE : null,
    });
    if (thread.discussionId !== undefined) {
      await setDiscussionType(trx, noteableKey(noteable), thread.discussionId, DISCUSSION_NOTE);
    }
    const hookNoteable = await noteable.touch(trx, at);
    await recordEvent(trx, {
      projectId: noteable.projectId,
      authorId: viewer.id,
      action: EventAction.Commented,
      targetId: note.id,
      targetType: 'Note',
      at,
    });
    const payload = presentNoteHookPayload(
      {
        baseUrl: deps.config.externalUrl,
        sshBase: deps.config.ssh.cloneUrlBase,
        record: loaded,
        actor: viewer,
      },
      note,
      hookNoteable,
    );
    await enqueueProjectHooks(trx, noteable.projectId, 'note_events', payload);
    await mailNote(trx, deps, viewer, note);
    const mentioner = noteable.mentioner;
    if (mentioner) {
      await recordMentions(trx, deps, {
        author: viewer,
        record: loaded,
        mentioner,
        texts: [body],
        crossReference: true,
        todos:
          mentioner.kind === 'commit'
            ? undefined
            : {
                target: mentioner.row,
                targetType: mentioner.kind === 'issue' ? 'Issue' : 'MergeRequest',
                noteId: note.id,
              },
        at,
      });
    }
    return { note };
  });
}

export async function editNote(
  deps: Deps,
  viewer: UserRow,
  loaded: LoadedProject,
  note: NoteRow,
  body: string,
): Promise<NoteRow> {
  if (!canAdminNote(viewer, loaded.access, note)) throw forbidden();
  if (note.system === 1) return note;
  const updated = await updateNote(deps.db.kysely, note.id, {
    note: body,
    updated_by_id: viewer.id,
    updated_at: now(),
  });
  return updated ?? note;
}

export async function destroyNote(deps: Deps, viewer: UserRow, loaded: LoadedProject, note: NoteRow) {
  if (!canAdminNote(viewer, loaded.access, note)) throw forbidden();
  await deps.db.kysely.transaction().execute((trx) => deleteNote(trx, note.id));
  return note;
}

/**
 * Resolves or reopens a thread of a merge request (GitLab's Discussions::ResolveService): every note of
 * it takes the resolver and the time, or loses them. Its author, the merge request's author and
 * developers and up may (GitLab's resolve_note); `resolvable` says whether the thread can be resolved.
 */
export async function resolveDiscussion(
  deps: Deps,
  viewer: UserRow,
  loaded: LoadedProject,
  noteable: Pick<Noteable, 'type' | 'id' | 'projectId' | 'commitId' | 'authorId'>,
  notes: NoteRow[],
  resolved: boolean,
): Promise<void> {
  const first = notes[0];
  if (!first || first.type !== DISCUSSION_NOTE || noteable.type !== 'MergeRequest' || first.system === 1) {
    throw apiError(400, '400 Bad request - Discussion is not resolvable');
  }
  const may =
    loaded.access.level >= AccessLevel.Developer ||
    viewer.admin === 1 ||
    noteable.authorId === viewer.id ||
    first.author_id === viewer.id;
  if (!may) throw forbidden();
  await deps.db.kysely
    .transaction()
    .execute((trx) =>
      resolveDiscussionNotes(
        trx,
        noteableKey(noteable),
        first.discussion_id,
        resolved
          ? { resolved_at: now(), resolved_by_id: viewer.id }
          : { resolved_at: null, resolved_by_id: null },
      ),
    );
}
