// v4's pipeline list by updated_at (order_by=updated_at, either sort): an index led by the project, as
// status, ref and user_id already have (010, 087), so a page walks only the entries before it.
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await createIndex(db, 'ci_pipelines_project_updated', 'ci_pipelines', 'project_id, updated_at, id');
};
