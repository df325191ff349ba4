// A job's artifacts beside its archive (GitLab's ci_job_artifacts): one per report type the runner
// uploads (`junit`, `dotenv`, `codequality` …), with its format, file name and size; a `dotenv`
// report's variables are kept parsed, for the later jobs that need or depend on it. Read by job
// (job_id, file_type); they go with their job.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('ci_job_artifacts'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('job_id', 'integer', (c) => c.notNull().references('ci_builds.id').onDelete('cascade'))
    .addColumn('file_type', 'text', (c) => c.notNull())
    .addColumn('file_format', 'text', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('dotenv_variables', 'text')
    .addColumn('expire_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'ci_job_artifacts_job_type', 'ci_job_artifacts', 'job_id, file_type', {
    unique: true,
  });
};
