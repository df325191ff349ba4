// The stuck-build sweep finds pending and running builds by how long they have not moved: an index on
// (status, updated_at) lets it read only those, oldest first, whatever the size of ci_builds.
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await createIndex(db, 'ci_builds_status_updated_at', 'ci_builds', 'status, updated_at, id');
};
