// v4's GET /runners/:id/jobs: a runner's jobs by id, all of them or of one status, on indexes led by the
// runner, so a page walks only the entries before it.
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await createIndex(db, 'ci_builds_runner', 'ci_builds', 'runner_id, id');
  await createIndex(db, 'ci_builds_runner_status', 'ci_builds', 'runner_id, status, id');
};
