// The discussion of an issue, merge request or commit: its notes, then the form that posts a comment.
import { UserAvatar } from './avatar.tsx';
import { Csrf, type PageContext } from './layout.tsx';
import { TimeAgo } from './projects.tsx';
import { taskItems } from '../../lib/gfm-references.ts';
import { counted, MarkdownBlock, UserLink, type PageReferences, type UserBasic } from './inline.tsx';

/** The project whose one notes route the comment form posts to. */
type NotesProject = { path_with_namespace: string };

export interface NoteItem {
  id: number;
  body: string;
  author: UserBasic;
  created_at: string;
  system: boolean;
  /** The diff line a comment on a commit is on, for a line comment. */
  onLine?: { path: string; line: number };
}

/** The mark of a system note (8.13's `note system-note` had an icon of its own), drawn inline. */
function SystemNoteIcon() {
  return (
    <svg
      class="system-note-icon"
      width="16"
      height="16"
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" stroke-width="1.5" />
      <path d="M5 8h6M8 5v6" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" />
    </svg>
  );
}

/**
 * The thread of an issue, merge request or commit: comments and system notes rendered from Markdown
 * with the page's references linked; a system note (a change, not a comment) is set apart by its icon
 * and class, as 8.13's `note system-note`.
 */
/** Every note of a thread, and the comments among them (system notes are changes, not comments). */
export type NoteCounts = { total: number; comments: number };

function NoteList(props: { notes: NoteItem[]; counts: NoteCounts; references?: PageReferences }) {
  return (
    <section aria-labelledby="notes-title">
      <h2 id="notes-title">{counted(props.counts.comments, 'comment')}</h2>
      {props.notes.length === 0 ? <p class="muted">No comments yet.</p> : null}
      <ul class="list" aria-label="Comments">
        {props.notes.map((note) => (
          <li id={`note_${note.id}`} class={note.system ? 'note system-note' : 'note'}>
            <p class="muted">
              {note.system ? <SystemNoteIcon /> : <UserAvatar user={note.author} />}{' '}
              <UserLink user={note.author} /> {note.system ? '' : 'commented '}
              {note.onLine ? (
                <>
                  on <code>{note.onLine.path}</code> line {note.onLine.line}{' '}
                </>
              ) : null}
              <a href={`#note_${note.id}`}>
                <TimeAgo at={note.created_at} />
              </a>
            </p>
            <MarkdownBlock text={note.body} references={props.references} />
          </li>
        ))}
      </ul>
      {props.notes.length < props.counts.total ? (
        <p class="muted">
          Showing the first {props.notes.length} of {props.counts.total} notes.
        </p>
      ) : null}
    </section>
  );
}

/** What a comment is on: 8.13's notes form names it by type and global id, or a commit by its sha. */
export type CommentNoteable =
  { type: 'Issue' | 'MergeRequest' | 'Snippet'; id: number } | { type: 'Commit'; id: string };

/** The form posting to the project's one notes route (a signed-out visitor is offered sign in). */
function CommentForm(props: {
  ctx: PageContext;
  project: NotesProject;
  noteable: CommentNoteable;
  body?: string;
}) {
  if (!props.ctx.viewer) {
    return (
      <p>
        <a href={`/users/sign_in?redirect_to=${encodeURIComponent(props.ctx.path)}`}>Sign in</a> to comment.
      </p>
    );
  }
  return (
    <form class="stack" method="post" action={`/${props.project.path_with_namespace}/notes`}>
      <Csrf ctx={props.ctx} />
      <input type="hidden" name="note[noteable_type]" value={props.noteable.type} />
      <input
        type="hidden"
        name={props.noteable.type === 'Commit' ? 'note[commit_id]' : 'note[noteable_id]'}
        value={String(props.noteable.id)}
      />
      <label>
        Comment (Markdown)
        <textarea name="note[note]" rows={5} required>
          {props.body ?? ''}
        </textarea>
      </label>
      <button type="submit" class="btn-primary">
        Comment
      </button>
    </form>
  );
}

/** The discussion of an issue, merge request or commit: its notes, then the comment form. */
export function Discussion(props: {
  ctx: PageContext;
  project: NotesProject;
  noteable: CommentNoteable;
  notes: NoteItem[];
  counts: NoteCounts;
  comment?: string;
  references?: PageReferences;
}) {
  return (
    <>
      <NoteList notes={props.notes} counts={props.counts} references={props.references} />
      <CommentForm ctx={props.ctx} project={props.project} noteable={props.noteable} body={props.comment} />
    </>
  );
}

/** Where a description's task boxes post, and the version of the description they were drawn from. */
export interface TaskTarget {
  action: string;
  /** The or MR's `updated_at` when the page was drawn: a tick against another version is refused. */
  version: string;
}

/**
 * An issue's or merge request's description. Its task boxes can be ticked by a reader who may edit it
 * (`tasks` given): they are a form that posts which boxes are ticked (a button saves them without
 * script); with script each tick posts at once (assets/task-list.ts).
 */
export function Description(props: {
  ctx: PageContext;
  text: string | null;
  references?: PageReferences;
  tasks?: TaskTarget;
}) {
  const { text, tasks } = props;
  if (!tasks || !text || taskItems(text).length === 0) {
    return <MarkdownBlock text={text} empty="No description." references={props.references} />;
  }
  return (
    <form class="task-form" method="post" action={tasks.action} data-task-form="true">
      <Csrf ctx={props.ctx} />
      <input type="hidden" name="lock_version" value={tasks.version} />
      <MarkdownBlock text={text} references={props.references} tasks />
      <p class="task-status muted" role="status"></p>
      <button type="submit" class="btn task-save">
        Save tasks
      </button>
    </form>
  );
}
