// Stars: one users_star_projects row per user and project (unique), and the project's star_count counter
// cache, moved by an in-place increment so concurrent stars never lose a count. Callers run both in one
// transaction.
import { sql } from 'kysely';
import type { Executor } from '../types.ts';

export async function insertStar(db: Executor, userId: number, projectId: number, at: string): Promise<void> {
  await db
    .insertInto('users_star_projects')
    .values({ project_id: projectId, user_id: userId, created_at: at, updated_at: at })
    .execute();
  await db
    .updateTable('projects')
    .set({ star_count: sql<number>`star_count + 1`, updated_at: at })
    .where('id', '=', projectId)
    .execute();
}

/** Removes the star; false when there was none (the counter is then left alone). */
export async function deleteStar(
  db: Executor,
  userId: number,
  projectId: number,
  at: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('users_star_projects')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) return false;
  await db
    .updateTable('projects')
    .set({
      star_count: sql<number>`case when star_count > 0 then star_count - 1 else 0 end`,
      updated_at: at,
    })
    .where('id', '=', projectId)
    .execute();
  return true;
}

export async function hasStar(db: Executor, userId: number, projectId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users_star_projects')
    .select('project_id')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}
