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
