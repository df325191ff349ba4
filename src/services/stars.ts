// Stars and archiving (reference/api-v3.md §7.2 P12–P15). A star is one users_star_projects row (unique
// per user and project) and the project's star_count moves with it in the same transaction, by an
// in-place increment, so concurrent stars never lose a count.
import { sql } from 'kysely';
import type { Deps } from '../deps.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { now } from '../clock.ts';
import { notModified } from '../errors.ts';
import type { UserRow } from '../db/types.ts';

export async function starProject(deps: Deps, viewer: UserRow, projectId: number): Promise<void> {
  const at = now();
  try {
    await deps.db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('users_star_projects')
        .values({ project_id: projectId, user_id: viewer.id, created_at: at, updated_at: at })
        .execute();
      await trx
        .updateTable('projects')
        .set({ star_count: sql<number>`star_count + 1`, updated_at: at })
        .where('id', '=', projectId)
        .execute();
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw notModified();
    throw error;
  }
}

export async function unstarProject(deps: Deps, viewer: UserRow, projectId: number): Promise<void> {
  const at = now();
  const removed = await deps.db.kysely.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('users_star_projects')
      .where('project_id', '=', projectId)
      .where('user_id', '=', viewer.id)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await trx
      .updateTable('projects')
      .set({
        star_count: sql<number>`case when star_count > 0 then star_count - 1 else 0 end`,
        updated_at: at,
      })
      .where('id', '=', projectId)
      .execute();
    return true;
  });
  if (!removed) throw notModified();
}

export async function setArchived(deps: Deps, projectId: number, archived: boolean): Promise<void> {
  await deps.db.kysely
    .updateTable('projects')
    .set({ archived: archived ? 1 : 0, updated_at: now() })
    .where('id', '=', projectId)
    .execute();
}
