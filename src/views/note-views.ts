// Notes of an issue or a merge request and comments on a commit (oldest first, paginated), and award
// emoji of an issue or a note, each page with its authors in one more statement (a commit's page also
// reads its diff once when a comment on it is a line comment).
import type { Deps } from '../deps.ts';
import type { Commit } from '../git/commits.ts';
import { projectRepositoryPath } from '../git/repository.ts';
import {
  countCommitNotes,
  countCommitNotesAndComments,
  countDiscussions,
  countNotes,
  findProjectNote,
  listCommitNotes,
  listDiscussionIds,
  listNotes,
  listNotesOrdered,
  notesOfDiscussions,
  type NoteableKey,
} from '../db/repositories/notes.ts';
import { commitNotePositions, type CommentedCommit } from '../services/repository/commit-notes.ts';
import { countAwards, findAward, listAwards, listUserAwards } from '../db/repositories/award-emoji.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { presentAwardEmoji, presentCommitNote, presentNote } from '../presenters/api-v3/issue.ts';
import type { Page } from '../http/pagination.ts';
import type { ProjectAccess } from '../policies/access.ts';
import { CROSS_REFERENCE_PREFIX } from '../domain/cross-references.ts';
import { markdownReferences, referenceKey } from '../lib/gfm-references.ts';
import { resolveReferences } from './reference-views.ts';
import type { AwardEmojiRow, NoteRow, ProjectRecord, UserRow } from '../db/types.ts';

function isCrossReference(note: Pick<NoteRow, 'system' | 'note'>): boolean {
  return Boolean(note.system) && note.note.startsWith(CROSS_REFERENCE_PREFIX);
}

/**
 * Notes less the cross-reference notes (`Mentioned in issue #2`) whose mentioner the reader may not see
 * (a confidential issue, a project hidden from them): Note#cross_reference_not_visible_for?. The
 * mentioners of a whole page are resolved in one batch, and only when the page holds such a note.
 */
export async function withoutHiddenCrossReferences<T>(
  deps: Deps,
  viewer: UserRow | null,
  project: ProjectRecord & { access: ProjectAccess },
  items: T[],
  noteOf: (item: T) => Pick<NoteRow, 'system' | 'note'>,
): Promise<T[]> {
  const crossReferences = items.map(noteOf).filter(isCrossReference);
  if (crossReferences.length === 0) return items;
  const map = await resolveReferences(
    { db: deps.db.kysely, dataDir: deps.config.dataDir, viewer, record: project, access: project.access },
    crossReferences.map((note) => note.note),
  );
  return items.filter((item) => {
    const note = noteOf(item);
    return (
      !isCrossReference(note) ||
      markdownReferences(note.note).some((reference) => map.resolved.has(referenceKey(reference)))
    );
  });
}

/** How many comments an issue's, merge request's or commit's page shows at most. */
export const NOTES_SHOWN_ON_PAGE = 500;

export function countNoteList(deps: Deps, noteableType: string, noteableId: number): Promise<number> {
  return countNotes(deps.db.kysely, noteableType, noteableId);
}

/** Notes in one of their shapes (Note by default), their authors read in one statement. */
export async function presentNotes<T = ReturnType<typeof presentNote>>(
  deps: Deps,
  notes: NoteRow[],
  present: (note: NoteRow, author: UserRow, baseUrl: string) => T = presentNote as never,
): Promise<T[]> {
  const users = await usersByIds(
    deps.db.kysely,
    notes.map((note) => note.author_id),
  );
  return notes.flatMap((note) => {
    const author = users.get(note.author_id);
    return author ? [present(note, author, deps.config.externalUrl)] : [];
  });
}

export async function presentNoteOne(deps: Deps, note: NoteRow) {
  const [presented] = await presentNotes(deps, [note]);
  return presented!;
}

/** A page of a noteable's notes, oldest first, in the Note shape or another (`present`). */
export async function noteListPage<T = ReturnType<typeof presentNote>>(
  deps: Deps,
  noteableType: string,
  noteableId: number,
  page: Page,
  reader: { viewer: UserRow | null; project: ProjectRecord & { access: ProjectAccess } },
  present?: (note: NoteRow, author: UserRow, baseUrl: string) => T,
): Promise<T[]> {
  const notes = await withoutHiddenCrossReferences(
    deps,
    reader.viewer,
    reader.project,
    await listNotes(deps.db.kysely, noteableType, noteableId, page.limit, page.offset),
    (note) => note,
  );
  return presentNotes(deps, notes, present);
}

/** A page of a commit's comments in the project (CommitNote), oldest first. */
export async function commitNotePage(
  deps: Deps,
  record: ProjectRecord,
  commented: CommentedCommit,
  page: Page,
) {
  const notes = await listCommitNotes(
    deps.db.kysely,
    record.project.id,
    commented.commit.id,
    page.limit,
    page.offset,
  );
  const positions = await commitNotePositions(commented, notes);
  return presentNotes(deps, notes, (note, author, baseUrl) =>
    presentCommitNote(
      note,
      author,
      baseUrl,
      note.line_code === null ? undefined : positions.get(note.line_code),
    ),
  );
}

/** Comments shown on a commit's page: the first of them with their diff lines, and how many there are. */
export async function commitNoteThread(deps: Deps, record: ProjectRecord, commit: Commit) {
  const db = deps.db.kysely;
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const commented = { repoPath, commit };
  const [counts, notes] = await Promise.all([
    countCommitNotesAndComments(db, record.project.id, commented.commit.id),
    listCommitNotes(db, record.project.id, commented.commit.id, NOTES_SHOWN_ON_PAGE, 0),
  ]);
  const positions = await commitNotePositions(commented, notes);
  const presented = await presentNotes(deps, notes, (note, author, baseUrl) => {
    const position = note.line_code === null ? undefined : positions.get(note.line_code);
    return {
      ...presentNote(note, author, baseUrl),
      ...(position ? { onLine: { path: position.path, line: position.line } } : {}),
    };
  });
  return { counts, notes: presented };
}

export function countCommitNoteList(deps: Deps, record: ProjectRecord, commitId: string): Promise<number> {
  return countCommitNotes(deps.db.kysely, record.project.id, commitId);
}

export function findNoteOfProject(deps: Deps, projectId: number, id: number): Promise<NoteRow | undefined> {
  return findProjectNote(deps.db.kysely, projectId, id);
}

async function presentAwards(deps: Deps, awards: AwardEmojiRow[]) {
  const users = await usersByIds(
    deps.db.kysely,
    awards.map((award) => award.user_id),
  );
  return awards.flatMap((award) => {
    const user = users.get(award.user_id);
    return user ? [presentAwardEmoji(award, user, deps.config.externalUrl)] : [];
  });
}

export async function presentAwardOne(deps: Deps, award: AwardEmojiRow) {
  const [presented] = await presentAwards(deps, [award]);
  return presented!;
}

export function countAwardList(deps: Deps, type: string, id: number): Promise<number> {
  return countAwards(deps.db.kysely, type, id);
}

export async function awardListPage(deps: Deps, type: string, id: number, page: Page) {
  return presentAwards(deps, await listAwards(deps.db.kysely, type, id, page.limit, page.offset));
}

export function findAwardOf(deps: Deps, type: string, awardableId: number, id: number) {
  return findAward(deps.db.kysely, type, awardableId, id);
}

/** The awards the viewer gave an issue or merge request (none for a signed-out visitor). */
export async function viewerAwards(deps: Deps, type: string, id: number, viewerId: number | undefined) {
  return viewerId === undefined ? [] : listUserAwards(deps.db.kysely, type, id, viewerId);
}

/** A note with the users its v4 entity names (author, resolver), read for a page at once. */
export interface NoteView {
  note: NoteRow;
  author: UserRow;
  resolvedBy: UserRow | null;
}

/** A thread: its id and its notes, oldest first. */
export interface DiscussionView {
  id: string;
  notes: NoteView[];
}

export async function noteViews(deps: Deps, notes: NoteRow[]): Promise<NoteView[]> {
  const users = await usersByIds(
    deps.db.kysely,
    notes.flatMap((note) =>
      note.resolved_by_id === null ? [note.author_id] : [note.author_id, note.resolved_by_id],
    ),
  );
  return notes.flatMap((note) => {
    const author = users.get(note.author_id);
    const resolvedBy = note.resolved_by_id === null ? null : (users.get(note.resolved_by_id) ?? null);
    return author ? [{ note, author, resolvedBy }] : [];
  });
}

/** A page of a noteable's notes in the order asked (v4's order_by and sort). */
export async function orderedNotePage(
  deps: Deps,
  key: NoteableKey,
  order: { by: 'created_at' | 'updated_at'; direction: 'asc' | 'desc' },
  page: Page,
): Promise<NoteView[]> {
  return noteViews(deps, await listNotesOrdered(deps.db.kysely, key, order, page.limit, page.offset));
}

export function countDiscussionList(deps: Deps, key: NoteableKey): Promise<number> {
  return countDiscussions(deps.db.kysely, key);
}

/** A page of a noteable's threads, the oldest-started first, each with its notes. */
export async function discussionListPage(
  deps: Deps,
  key: NoteableKey,
  page: Page,
  viewer: UserRow | null,
  project: ProjectRecord & { access: ProjectAccess },
): Promise<DiscussionView[]> {
  const ids = await listDiscussionIds(deps.db.kysely, key, page.limit, page.offset);
  const threads = await discussionsOf(deps, key, ids);
  // A thread is one note or a reply chain; a cross-reference note is always a thread of its own.
  return withoutHiddenCrossReferences(deps, viewer, project, threads, (thread) => thread.notes[0]!.note);
}

async function discussionsOf(deps: Deps, key: NoteableKey, ids: string[]): Promise<DiscussionView[]> {
  const views = await noteViews(deps, await notesOfDiscussions(deps.db.kysely, key, ids));
  return ids.flatMap((id) => {
    const notes = views.filter((view) => view.note.discussion_id === id);
    return notes.length > 0 ? [{ id, notes }] : [];
  });
}

/** One thread of a noteable, or undefined when it has none of that id. */
export async function findDiscussion(
  deps: Deps,
  key: NoteableKey,
  id: string,
): Promise<DiscussionView | undefined> {
  if (!/^[0-9a-f]{40}$/.test(id)) return undefined;
  const [found] = await discussionsOf(deps, key, [id]);
  return found;
}
