// Release notes of tags; every query is on (project_id, tag).
import type { Executor, ReleaseRow } from '../types.ts';

export function listReleases(db: Executor, projectId: number): Promise<ReleaseRow[]> {
  return db.selectFrom('releases').selectAll().where('project_id', '=', projectId).execute();
}

export function findRelease(db: Executor, projectId: number, tag: string): Promise<ReleaseRow | undefined> {
  return db
    .selectFrom('releases')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('tag', '=', tag)
    .executeTakeFirst();
}

/** Inserts the release unless the tag has one; returns it, or undefined when it existed. */
export function insertRelease(db: Executor, row: Omit<ReleaseRow, 'id'>): Promise<ReleaseRow | undefined> {
  return db
    .insertInto('releases')
    .values(row)
    .onConflict((conflict) => conflict.columns(['project_id', 'tag']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function updateReleaseDescription(
  db: Executor,
  projectId: number,
  tag: string,
  description: string,
  at: string,
): Promise<ReleaseRow | undefined> {
  return db
    .updateTable('releases')
    .set({ description, updated_at: at })
    .where('project_id', '=', projectId)
    .where('tag', '=', tag)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteRelease(db: Executor, projectId: number, tag: string): Promise<void> {
  await db.deleteFrom('releases').where('project_id', '=', projectId).where('tag', '=', tag).execute();
}
