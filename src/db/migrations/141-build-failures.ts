// What today's runners report about a failed job and the times a build keeps: `failure_reason` and
// `exit_code` from runner v4's PUT /jobs/:id (retry: when and allow_failure: exit_codes read them),
// `timeout_at` (a running job past it is failed as job_execution_timeout by a sweep, found on the
// running builds' index) and `scheduled_at` (a `when: delayed` job waits as `scheduled` until then).
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  for (const [name, type] of [
    ['failure_reason', 'text'],
    ['exit_code', 'integer'],
    ['timeout_at', 'text'],
    ['scheduled_at', 'text'],
  ] as const) {
    await db.schema.alterTable('ci_builds').addColumn(name, type).execute();
  }
  await createIndex(db, 'ci_builds_timeout', 'ci_builds', 'timeout_at', {
    where: "status = 'running' and timeout_at is not null",
  });
  await createIndex(db, 'ci_builds_scheduled', 'ci_builds', 'scheduled_at', {
    where: "status = 'scheduled'",
  });
};
