// Merge requests (GitLab 8.13's merge_requests). `project_id` in the API is the target project; iids
// count per target project and are never reused (soft-deleted rows keep theirs), one unique index
// deciding between concurrent creates. `head_sha` is the source head the MR last saw (8.13's
// diff_head_sha), refreshed by push processing; `in_progress_merge_commit_sha` names the merge commit
// between the merge's ref write and the push processing that marks the MR merged (crash recovery
// finishes it). Lists walk (target project, created_at or updated_at, id), with or without state.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('merge_requests'), dialect)
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('target_project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('target_branch', 'text', (c) => c.notNull())
    .addColumn('source_project_id', 'integer', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('source_branch', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('assignee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_by_id', 'integer')
    .addColumn('merge_user_id', 'integer')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('merge_status', 'text', (c) => c.notNull())
    .addColumn('merge_params', 'text')
    .addColumn('merge_when_build_succeeds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('head_sha', 'text')
    .addColumn('merge_commit_sha', 'text')
    .addColumn('in_progress_merge_commit_sha', 'text')
    .addColumn('merge_error', 'text')
    .addColumn('locked_at', 'text')
    .addColumn('deleted_at', 'text')
    .addColumn('lock_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'merge_requests_target_iid', 'merge_requests', 'target_project_id, iid', {
    unique: true,
  });
  // List walks: newest/oldest by created_at or updated_at, all states or one.
  await createIndex(db, 'merge_requests_list_created', 'merge_requests', 'target_project_id, created_at, id');
  await createIndex(db, 'merge_requests_list_updated', 'merge_requests', 'target_project_id, updated_at, id');
  await createIndex(
    db,
    'merge_requests_list_state_created',
    'merge_requests',
    'target_project_id, state, created_at, id',
  );
  await createIndex(
    db,
    'merge_requests_list_state_updated',
    'merge_requests',
    'target_project_id, state, updated_at, id',
  );
  // Push processing: the MRs whose source or target branch a push moved.
  await createIndex(db, 'merge_requests_source', 'merge_requests', 'source_project_id, source_branch, state');
  await createIndex(db, 'merge_requests_target', 'merge_requests', 'target_project_id, target_branch, state');
  // Deleting a user sets their MRs' author and assignee to null without a scan.
  await createIndex(db, 'merge_requests_author', 'merge_requests', 'author_id');
  await createIndex(db, 'merge_requests_assignee', 'merge_requests', 'assignee_id');
};
