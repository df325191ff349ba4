// What a deleted user leaves behind for the ghost user (GitLab's MigrateRecordsToGhostUserService): the
// issues, merge requests and notes they wrote and the award emoji they gave. Each update walks the
// table's author or user index (issues_author_*, merge_requests_author, notes_author, award_emoji_user).
import type { Executor } from '../types.ts';

export async function moveContributions(db: Executor, fromId: number, toId: number): Promise<void> {
  await db.updateTable('issues').set({ author_id: toId }).where('author_id', '=', fromId).execute();
  await db.updateTable('merge_requests').set({ author_id: toId }).where('author_id', '=', fromId).execute();
  await db.updateTable('notes').set({ author_id: toId }).where('author_id', '=', fromId).execute();
  // One award per awardable, name and user: an emoji the ghost already gave there stays the only one.
  await db
    .deleteFrom('award_emoji as mine')
    .where('mine.user_id', '=', fromId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('award_emoji as ghost')
          .select('ghost.id')
          .where('ghost.user_id', '=', toId)
          .whereRef('ghost.awardable_type', '=', 'mine.awardable_type')
          .whereRef('ghost.awardable_id', '=', 'mine.awardable_id')
          .whereRef('ghost.name', '=', 'mine.name'),
      ),
    )
    .execute();
  await db.updateTable('award_emoji').set({ user_id: toId }).where('user_id', '=', fromId).execute();
}
