// Merges owed to merge_when_build_succeeds (8.13's PipelineSuccessWorker → MergeWorker): a row is written
// in the transaction that moves an MR's head pipeline to `success`, so the merge is owed durably the moment
// the pipeline succeeded, and deleted once a worker has merged the MR (or found it no longer wants one).
// A crash in between leaves the row for the next start. One row per MR: a later success replaces nothing.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('merge_request_auto_merges'), dialect)
    .addColumn('merge_request_id', 'integer', (c) =>
      c.notNull().references('merge_requests.id').onDelete('cascade'),
    )
    .addColumn('pipeline_id', 'integer', (c) => c.notNull().references('ci_pipelines.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'merge_request_auto_merges_mr', 'merge_request_auto_merges', 'merge_request_id', {
    unique: true,
  });
  await createIndex(db, 'merge_request_auto_merges_pipeline', 'merge_request_auto_merges', 'pipeline_id');
};
