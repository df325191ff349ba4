// Merge request versions (GitLab 8.12's merge_request_diffs, read by `GET …/versions`): one row per head
// an MR has had, written in the transaction that creates the MR or moves its source branch. A version
// names its three commits (head, merge base, target head) and its size; commits and diffs are read from
// git at those commits, so nothing of the diff is stored.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('merge_request_diffs'), dialect)
    .addColumn('merge_request_id', 'integer', (c) =>
      c.notNull().references('merge_requests.id').onDelete('cascade'),
    )
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('head_commit_sha', 'text')
    .addColumn('base_commit_sha', 'text')
    .addColumn('start_commit_sha', 'text')
    .addColumn('real_size', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'merge_request_diffs_mr', 'merge_request_diffs', 'merge_request_id, id');
};
