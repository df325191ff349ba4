// Environments and deployments (GitLab 8.11's, as 8.13 kept them, with today's slug, tier and deployment
// status). A deployment's iid comes from internal_ids ('deployments'). Lists walk the project's indexes
// in each order the v4 list takes (id, iid, created_at, updated_at, ref), or an environment's; the job
// that deployed is found from its build (deployable_id). Project hooks gain today's deployment switch.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('environments'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('external_url', 'text')
    .addColumn('environment_type', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('available'))
    .addColumn('tier', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'environments_project_name', 'environments', 'project_id, name', { unique: true });
  await createIndex(db, 'environments_project_state', 'environments', 'project_id, state, id');
  await withId(db.schema.createTable('deployments'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('environment_id', 'integer', (c) =>
      c.notNull().references('environments.id').onDelete('cascade'),
    )
    .addColumn('iid', 'integer', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('tag', 'integer', (c) => c.notNull())
    .addColumn('sha', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('deployable_id', 'integer', (c) => c.references('ci_builds.id').onDelete('set null'))
    .addColumn('on_stop', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'deployments_project_iid', 'deployments', 'project_id, iid', { unique: true });
  await createIndex(db, 'deployments_project_id', 'deployments', 'project_id, id');
  await createIndex(db, 'deployments_project_created', 'deployments', 'project_id, created_at, id');
  await createIndex(db, 'deployments_project_updated', 'deployments', 'project_id, updated_at, id');
  await createIndex(db, 'deployments_project_ref', 'deployments', 'project_id, ref, id');
  await createIndex(db, 'deployments_project_status', 'deployments', 'project_id, status, id');
  await createIndex(db, 'deployments_environment', 'deployments', 'environment_id, id');
  await createIndex(db, 'deployments_environment_status', 'deployments', 'environment_id, status, id');
  await createIndex(db, 'deployments_deployable', 'deployments', 'deployable_id', {
    where: 'deployable_id is not null',
  });
  // A user's deletion clears their deployments' user.
  await createIndex(db, 'deployments_user', 'deployments', 'user_id', { where: 'user_id is not null' });
  await db.schema
    .alterTable('project_hooks')
    .addColumn('deployment_events', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
};
