// A pipeline's own variables (GitLab's ci_pipeline_variables): those given to POST /projects/:id/pipeline
// and those a pipeline schedule hands to the pipeline it runs, copied at creation so a later edit of the
// schedule leaves a run's jobs as they were. Jobs read them by (pipeline_id, id); the pipeline takes
// them with it.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('ci_pipeline_variables'), dialect)
    .addColumn('pipeline_id', 'integer', (c) => c.notNull().references('ci_pipelines.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('variable_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'ci_pipeline_variables_pipeline_key', 'ci_pipeline_variables', 'pipeline_id, key', {
    unique: true,
  });
};
