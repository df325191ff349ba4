// v4's Note and Discussion entities (lib/api/entities/note.rb, discussion.rb): the note with its
// thread's `type` (null alone, `DiscussionNote` in a thread), `noteable_iid`, `project_id`, whether it
// can be resolved (a thread's note on a merge request) and, when it can, by whom and when; Labrador has
// no internal notes (`confidential`/`internal` false) and no quick actions (`commands_changes` empty).
import type { DiscussionView, NoteView } from '../../views/note-views.ts';
import { presentUserBasic } from './user.ts';

function isResolvable({ note }: NoteView): boolean {
  return note.noteable_type === 'MergeRequest' && note.type === 'DiscussionNote' && note.system === 0;
}

export function presentNoteV4(view: NoteView, noteableIid: number | null, baseUrl: string) {
  const { note } = view;
  const resolvable = isResolvable(view);
  return {
    id: note.id,
    type: note.type,
    body: note.note,
    attachment: note.attachment,
    author: presentUserBasic(view.author, baseUrl),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system === 1,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    project_id: note.project_id,
    resolvable,
    ...(resolvable
      ? {
          resolved: note.resolved_at !== null,
          resolved_by: view.resolvedBy ? presentUserBasic(view.resolvedBy, baseUrl) : null,
          resolved_at: note.resolved_at,
        }
      : {}),
    confidential: false,
    internal: false,
    noteable_iid: noteableIid,
    commands_changes: {},
  };
}

export function presentDiscussion(view: DiscussionView, noteableIid: number | null, baseUrl: string) {
  return {
    id: view.id,
    individual_note: view.notes.length === 1 && view.notes[0]!.note.type === null,
    notes: view.notes.map((note) => presentNoteV4(note, noteableIid, baseUrl)),
  };
}
