// v4's `source_branch` filter of a project's merge requests: found on the target project and the branch,
// newest first from the index (the older source index starts with the source project, which a target's
// list does not name; without created_at here SQLite walked the whole list index for its order instead).
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await createIndex(
    db,
    'merge_requests_target_source',
    'merge_requests',
    'target_project_id, source_branch, created_at, id',
  );
};
