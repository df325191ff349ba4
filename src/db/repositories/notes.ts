// Notes on a noteable (an issue or a merge request), walked by (noteable_type, noteable_id, id); comments
// on a commit, walked by (project_id, commit_id, created_at, id). Threads (discussion_id) are walked by
// (noteable, discussion_id, id): a page of threads is a page of their ids, then their notes at once.
import crypto from 'node:crypto';
import type { ExpressionBuilder, SelectQueryBuilder, Updateable } from 'kysely';
import type { Database } from '../schema.ts';
import type { Executor, NewNote, NoteRow } from '../types.ts';

/** A new thread's id: 40 hex digits, as GitLab's discussion ids are. */
function newDiscussionId(): string {
  return crypto.randomBytes(20).toString('hex');
}

/** A note; one given no discussion_id starts a thread of its own. */
export function insertNote(db: Executor, values: NewNote): Promise<NoteRow> {
  return db
    .insertInto('notes')
    .values({ ...values, discussion_id: values.discussion_id ?? newDiscussionId() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** What notes are on: an issue or merge request by id, or a commit of a project by sha. */
export type NoteableKey =
  { type: string; id: number } | { type: 'Commit'; projectId: number; commitId: string };

function onNoteable<O>(query: SelectQueryBuilder<Database, 'notes', O>, key: NoteableKey) {
  return 'commitId' in key
    ? query.where('project_id', '=', key.projectId).where('commit_id', '=', key.commitId)
    : query.where('noteable_type', '=', key.type).where('noteable_id', '=', key.id);
}

/** A noteable's notes by created_at or updated_at, ascending or descending, id breaking ties. */
export function listNotesOrdered(
  db: Executor,
  key: NoteableKey,
  order: { by: 'created_at' | 'updated_at'; direction: 'asc' | 'desc' },
  limit: number,
  offset: number,
): Promise<NoteRow[]> {
  return onNoteable(db.selectFrom('notes').selectAll(), key)
    .orderBy(order.by, order.direction)
    .orderBy('id', order.direction)
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countDiscussions(db: Executor, key: NoteableKey): Promise<number> {
  const row = await onNoteable(
    db.selectFrom('notes').select((eb) => eb.fn.count<number>('discussion_id').distinct().as('count')),
    key,
  ).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A page of a noteable's threads, the oldest-started first: their ids. */
export async function listDiscussionIds(
  db: Executor,
  key: NoteableKey,
  limit: number,
  offset: number,
): Promise<string[]> {
  const rows = await onNoteable(
    db
      .selectFrom('notes')
      .select((eb) => ['discussion_id', eb.fn.min('id').as('first')])
      .groupBy('discussion_id'),
    key,
  )
    .orderBy('first')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((row) => row.discussion_id);
}

/** The notes of the threads named, oldest first. */
export function notesOfDiscussions(
  db: Executor,
  key: NoteableKey,
  discussionIds: string[],
): Promise<NoteRow[]> {
  if (discussionIds.length === 0) return Promise.resolve([]);
  return onNoteable(db.selectFrom('notes').selectAll(), key)
    .where('discussion_id', 'in', discussionIds)
    .orderBy('id')
    .execute();
}

/** Marks every note of a thread as one of a thread (a reply turns an individual note into one). */
export async function setDiscussionType(db: Executor, key: NoteableKey, discussionId: string, type: string) {
  await db
    .updateTable('notes')
    .set({ type })
    .where('discussion_id', '=', discussionId)
    .where('id', 'in', (eb) =>
      onNoteable(eb.selectFrom('notes').select('id'), key).where('discussion_id', '=', discussionId),
    )
    .execute();
}

/** Resolves (or reopens, with nulls) every note of a thread. */
export async function resolveDiscussionNotes(
  db: Executor,
  key: NoteableKey,
  discussionId: string,
  resolution: { resolved_at: string | null; resolved_by_id: number | null },
) {
  await db
    .updateTable('notes')
    .set(resolution)
    .where('discussion_id', '=', discussionId)
    .where('id', 'in', (eb) =>
      onNoteable(eb.selectFrom('notes').select('id'), key).where('discussion_id', '=', discussionId),
    )
    .execute();
}

export async function countNotes(db: Executor, noteableType: string, noteableId: number): Promise<number> {
  const row = await db
    .selectFrom('notes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('noteable_type', '=', noteableType)
    .where('noteable_id', '=', noteableId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A thread's size for its page: every note (for "showing the first …"), and the comments among them. */
const NOTE_AND_COMMENT_COUNTS = (eb: ExpressionBuilder<Database, 'notes'>) => [
  eb.fn.countAll<number>().as('total'),
  eb.fn.countAll<number>().filterWhere('system', '=', 0).as('comments'),
];
const noteCounts = (row: { total: number; comments: number }) => ({
  total: Number(row.total),
  comments: Number(row.comments),
});

export async function countNotesAndComments(db: Executor, noteableType: string, noteableId: number) {
  const row = await db
    .selectFrom('notes')
    .select(NOTE_AND_COMMENT_COUNTS)
    .where('noteable_type', '=', noteableType)
    .where('noteable_id', '=', noteableId)
    .executeTakeFirstOrThrow();
  return noteCounts(row);
}

export function listNotes(
  db: Executor,
  noteableType: string,
  noteableId: number,
  limit: number,
  offset: number,
): Promise<NoteRow[]> {
  return db
    .selectFrom('notes')
    .selectAll()
    .where('noteable_type', '=', noteableType)
    .where('noteable_id', '=', noteableId)
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

export function findProjectNote(db: Executor, projectId: number, id: number): Promise<NoteRow | undefined> {
  return db
    .selectFrom('notes')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function updateNote(
  db: Executor,
  id: number,
  changes: Updateable<Database['notes']>,
): Promise<NoteRow | undefined> {
  return db.updateTable('notes').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteNote(db: Executor, id: number): Promise<void> {
  await db
    .deleteFrom('award_emoji')
    .where('awardable_type', '=', 'Note')
    .where('awardable_id', '=', id)
    .execute();
  await db.deleteFrom('notes').where('id', '=', id).execute();
}

export async function notesByIds(db: Executor, ids: number[]): Promise<Map<number, NoteRow>> {
  const result = new Map<number, NoteRow>();
  if (ids.length === 0) return result;
  for (const row of await db
    .selectFrom('notes')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute())
    result.set(row.id, row);
  return result;
}

export async function countCommitNotes(db: Executor, projectId: number, commitId: string): Promise<number> {
  const row = await db
    .selectFrom('notes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('project_id', '=', projectId)
    .where('commit_id', '=', commitId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A commit's thread for its page: every note and the comments among them. */
export async function countCommitNotesAndComments(db: Executor, projectId: number, commitId: string) {
  const row = await db
    .selectFrom('notes')
    .select(NOTE_AND_COMMENT_COUNTS)
    .where('project_id', '=', projectId)
    .where('commit_id', '=', commitId)
    .executeTakeFirstOrThrow();
  return noteCounts(row);
}

/** A commit's comments in the project, oldest first (8.13 ordered them by created_at). */
export function listCommitNotes(
  db: Executor,
  projectId: number,
  commitId: string,
  limit: number,
  offset: number,
): Promise<NoteRow[]> {
  return db
    .selectFrom('notes')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('commit_id', '=', commitId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}
