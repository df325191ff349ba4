// Report artifacts whose expire_in passed are swept like archives: a partial index on expire_at, so the
// sweep walks only the artifacts that expire, oldest first.
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await createIndex(db, 'ci_job_artifacts_expire_at', 'ci_job_artifacts', 'expire_at', {
    where: 'expire_at is not null',
  });
};
