// Notes on a noteable (an issue or a merge request), walked by (noteable_type, noteable_id, id); comments
// on a commit, walked by (project_id, commit_id, created_at, id).
import type { Updateable } from 'kysely';
import type { Database } from '../schema.ts';
import type { Executor, NewNote, NoteRow } from '../types.ts';

export function insertNote(db: Executor, values: NewNote): Promise<NoteRow> {
  return db.insertInto('notes').values(values).returningAll().executeTakeFirstOrThrow();
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
