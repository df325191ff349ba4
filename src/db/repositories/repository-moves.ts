// The journal of repository moves not yet finished on disk; rows are few and short-lived.
import type { Executor, RepositoryMoveRow } from '../types.ts';

export async function insertRepositoryMove(
  db: Executor,
  row: Omit<RepositoryMoveRow, 'id'>,
): Promise<number> {
  const inserted = await db
    .insertInto('repository_moves')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** The oldest unfinished moves after `afterId` (start-up walks them in id order). */
export function listRepositoryMoves(
  db: Executor,
  afterId: number,
  limit: number,
): Promise<RepositoryMoveRow[]> {
  return db
    .selectFrom('repository_moves')
    .selectAll()
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function deleteRepositoryMove(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('repository_moves').where('id', '=', id).execute();
}
