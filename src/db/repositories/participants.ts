// Which of a page of issues or merge requests a user took part in by commenting or awarding an emoji
// (two index probes).
import type { Executor } from '../types.ts';

export async function participatedIds(
  db: Executor,
  type: 'Issue' | 'MergeRequest',
  userId: number,
  issueIds: number[],
): Promise<Set<number>> {
  const result = new Set<number>();
  if (issueIds.length === 0) return result;
  const [noted, awarded] = await Promise.all([
    db
      .selectFrom('notes')
      .select('noteable_id')
      .distinct()
      .where('noteable_type', '=', type)
      .where('noteable_id', 'in', issueIds)
      .where('author_id', '=', userId)
      .execute(),
    db
      .selectFrom('award_emoji')
      .select('awardable_id')
      .distinct()
      .where('awardable_type', '=', type)
      .where('awardable_id', 'in', issueIds)
      .where('user_id', '=', userId)
      .execute(),
  ]);
  for (const row of noted) if (row.noteable_id !== null) result.add(row.noteable_id);
  for (const row of awarded) result.add(row.awardable_id);
  return result;
}

/**
 * Everyone who commented on or awarded an emoji to one issue or merge request, each once, in the order
 * they first took part (one grouped read per table over its (type, id) index).
 */
export async function participantIdsOf(
  db: Executor,
  type: 'Issue' | 'MergeRequest',
  id: number,
): Promise<number[]> {
  const [noted, awarded] = await Promise.all([
    db
      .selectFrom('notes')
      .select('author_id')
      .select((eb) => eb.fn.min('id').as('first'))
      .where('noteable_type', '=', type)
      .where('noteable_id', '=', id)
      .groupBy('author_id')
      .execute(),
    db
      .selectFrom('award_emoji')
      .select('user_id')
      .select((eb) => eb.fn.min('id').as('first'))
      .where('awardable_type', '=', type)
      .where('awardable_id', '=', id)
      .groupBy('user_id')
      .execute(),
  ]);
  const byFirst = (a: { first: number }, b: { first: number }) => Number(a.first) - Number(b.first);
  return [
    ...noted.sort(byFirst).flatMap((row) => (row.author_id === null ? [] : [row.author_id])),
    ...awarded.sort(byFirst).map((row) => row.user_id),
  ];
}
