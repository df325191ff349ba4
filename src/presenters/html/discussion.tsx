// The discussion of an issue, merge request or commit: its notes, then the form that posts a comment.
import { Csrf, type PageContext } from './layout.tsx';
import { TimeAgo } from './projects.tsx';
import { counted, MarkdownBlock, UserLink, type UserBasic } from './inline.tsx';

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

/** The thread of an issue, merge request or commit: comments and system notes rendered from Markdown. */
function NoteList(props: { notes: NoteItem[]; total: number }) {
  return (
    <section aria-labelledby="notes-title">
      <h2 id="notes-title">{counted(props.total, 'comment')}</h2>
      {props.notes.length === 0 ? <p class="muted">No comments yet.</p> : null}
      <ul class="list" aria-label="Comments">
        {props.notes.map((note) => (
          <li id={`note_${note.id}`} class={note.system ? 'note system' : 'note'}>
            <p class="muted">
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
            <MarkdownBlock text={note.body} />
          </li>
        ))}
      </ul>
      {props.notes.length < props.total ? (
        <p class="muted">
          Showing the first {props.notes.length} of {props.total} comments.
        </p>
      ) : null}
    </section>
  );
}

/** What a comment is on: 8.13's notes form names it by type and global id, or a commit by its sha. */
export type CommentNoteable = { type: 'Issue' | 'MergeRequest'; id: number } | { type: 'Commit'; id: string };

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
  total: number;
  comment?: string;
}) {
  return (
    <>
      <NoteList notes={props.notes} total={props.total} />
      <CommentForm ctx={props.ctx} project={props.project} noteable={props.noteable} body={props.comment} />
    </>
  );
}
