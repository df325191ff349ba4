// Merge request versions (migration 046).
import type { Executor, MergeRequestDiffRow, NewMergeRequestDiffRow } from '../types.ts';

/** The new version's id. */
export async function insertMergeRequestDiff(db: Executor, values: NewMergeRequestDiffRow): Promise<number> {
  const row = await db
    .insertInto('merge_request_diffs')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** An MR's versions, newest first (8.13's merge_request_diffs association). */
export function listMergeRequestDiffs(db: Executor, mergeRequestId: number): Promise<MergeRequestDiffRow[]> {
  return db
    .selectFrom('merge_request_diffs')
    .selectAll()
    .where('merge_request_id', '=', mergeRequestId)
    .orderBy('id', 'desc')
    .execute();
}

export function findMergeRequestDiff(
  db: Executor,
  mergeRequestId: number,
  id: number,
): Promise<MergeRequestDiffRow | undefined> {
  return db
    .selectFrom('merge_request_diffs')
    .selectAll()
    .where('merge_request_id', '=', mergeRequestId)
    .where('id', '=', id)
    .executeTakeFirst();
}
