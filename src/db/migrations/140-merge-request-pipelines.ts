// Merge request pipelines (source `merge_request_event`): a pipeline names the merge request it ran for,
// so an MR's pipelines are one step down (merge_request_id, id), and keeps the CI_MERGE_REQUEST_*
// variables as they were when it was made (rules read them then; its jobs get the same values later).
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await db.schema
    .alterTable('ci_pipelines')
    .addColumn('merge_request_id', 'integer', (c) => c.references('merge_requests.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('ci_pipelines').addColumn('merge_request_variables', 'text').execute();
  await createIndex(db, 'ci_pipelines_merge_request', 'ci_pipelines', 'merge_request_id, id', {
    where: 'merge_request_id is not null',
  });
};
