// Pipeline schedules (v4's Ci::PipelineSchedule): a ref to build on a cron in a time zone, as its owner.
// The worker finds due schedules on (active, next_run_at) and claims each by moving next_run_at on with a
// compare-and-swap; lists walk (project_id, id). A scheduled pipeline names its schedule, so a schedule's
// pipelines are one step down (pipeline_schedule_id, id).
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('ci_pipeline_schedules'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('cron', 'text', (c) => c.notNull())
    .addColumn('cron_timezone', 'text', (c) => c.notNull())
    .addColumn('next_run_at', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'ci_pipeline_schedules_due', 'ci_pipeline_schedules', 'active, next_run_at');
  await createIndex(db, 'ci_pipeline_schedules_project', 'ci_pipeline_schedules', 'project_id, id');
  // A user's deletion clears their schedules' owner.
  await createIndex(db, 'ci_pipeline_schedules_owner', 'ci_pipeline_schedules', 'owner_id');
  await withId(db.schema.createTable('ci_pipeline_schedule_variables'), dialect)
    .addColumn('pipeline_schedule_id', 'integer', (c) =>
      c.notNull().references('ci_pipeline_schedules.id').onDelete('cascade'),
    )
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('variable_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(
    db,
    'ci_pipeline_schedule_variables_key',
    'ci_pipeline_schedule_variables',
    'pipeline_schedule_id, key',
    { unique: true },
  );
  await db.schema
    .alterTable('ci_pipelines')
    .addColumn('pipeline_schedule_id', 'integer', (c) =>
      c.references('ci_pipeline_schedules.id').onDelete('set null'),
    )
    .execute();
  await createIndex(db, 'ci_pipelines_schedule', 'ci_pipelines', 'pipeline_schedule_id, id', {
    where: 'pipeline_schedule_id is not null',
  });
};
