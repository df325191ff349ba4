// Requests to join a project or a group (GitLab 8.11–8.13 kept them as members rows with requested_at;
// here they have their own table, so no member list, access check or count can mistake a requester for a
// member). Exactly one holder; each holder's requests are unique per user and listed by its index, and
// a deleted project, group or user takes its requests with it.
import { sql } from 'kysely';
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('access_requests'), dialect)
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.references('namespaces.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addCheckConstraint('access_requests_one_holder', sql`(project_id is null) <> (group_id is null)`)
    .execute();
  await createIndex(db, 'access_requests_project_user', 'access_requests', 'project_id, user_id', {
    unique: true,
    where: 'project_id is not null',
  });
  await createIndex(db, 'access_requests_group_user', 'access_requests', 'group_id, user_id', {
    unique: true,
    where: 'group_id is not null',
  });
  await createIndex(db, 'access_requests_user_id', 'access_requests', 'user_id');
};
