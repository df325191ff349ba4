// Git hosting: protected branches (GitLab's name or wildcard rules, with the two v3 flags) and the
// pushes log that makes push processing crash-safe (a row is committed before receive-pack runs and
// marked processed in the same transaction as the push's events).
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  // project_id is a plain indexed integer: the projects table belongs to another area's migration.
  await withId(db.schema.createTable('protected_branches'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('developers_can_push', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('developers_can_merge', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'protected_branches_project_name', 'protected_branches', 'project_id, name', {
    unique: true,
  });

  await withId(db.schema.createTable('pushes'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // JSON array of {before, after, ref} as the client sent them
    .addColumn('changes', 'text', (c) => c.notNull())
    // 'pending' until processed; 'processed' once events (and later hooks, pipelines) are recorded
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    // JSON array of the ref updates that really happened (set when processed)
    .addColumn('applied_changes', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text')
    .execute();
  await createIndex(db, 'pushes_pending', 'pushes', 'id', { where: "status = 'pending'" });
  await createIndex(db, 'pushes_project_id', 'pushes', 'project_id, id');
};
