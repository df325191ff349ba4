// Projects and what hangs off them: memberships (projects and groups), group shares, stars, fork links
// and activity events. Tables owned by a project cascade with it; members are polymorphic
// (source_type 'Project' | 'Namespace'), so deleting a project removes its member rows in the service.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('projects'), dialect)
    .addColumn('namespace_id', 'integer', (c) => c.notNull().references('namespaces.id').onDelete('cascade'))
    .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('default_branch', 'text')
    .addColumn('visibility_level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('issues_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('merge_requests_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('wiki_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('builds_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('snippets_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('container_registry_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('shared_runners_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('public_builds', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('lfs_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('only_allow_merge_if_build_succeeds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('request_access_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('runners_token', 'text', (c) => c.notNull())
    .addColumn('star_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('import_url', 'text')
    .addColumn('avatar', 'text')
    .addColumn('last_activity_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'projects_namespace_path', 'projects', 'namespace_id, lower(path)', { unique: true });
  await createIndex(db, 'projects_namespace_name', 'projects', 'namespace_id, lower(name)', { unique: true });
  await createIndex(db, 'projects_runners_token', 'projects', 'runners_token', { unique: true });
  await createIndex(db, 'projects_visibility_id', 'projects', 'visibility_level, id');
  await createIndex(db, 'projects_creator_id', 'projects', 'creator_id');

  await withId(db.schema.createTable('members'), dialect)
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('access_level', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('notification_level', 'integer')
    .addColumn('created_by_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'members_source_user', 'members', 'source_type, source_id, user_id', {
    unique: true,
  });
  await createIndex(db, 'members_user_id', 'members', 'user_id, source_type, source_id');

  await withId(db.schema.createTable('project_group_links'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('namespaces.id').onDelete('cascade'))
    .addColumn('group_access', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'project_group_links_project_group', 'project_group_links', 'project_id, group_id', {
    unique: true,
  });
  await createIndex(db, 'project_group_links_group', 'project_group_links', 'group_id, project_id');

  await withId(db.schema.createTable('users_star_projects'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'users_star_projects_project_user', 'users_star_projects', 'project_id, user_id', {
    unique: true,
  });
  await createIndex(db, 'users_star_projects_user', 'users_star_projects', 'user_id, project_id');

  await withId(db.schema.createTable('forked_project_links'), dialect)
    .addColumn('forked_to_project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('forked_from_project_id', 'integer', (c) =>
      c.notNull().references('projects.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'forked_project_links_to', 'forked_project_links', 'forked_to_project_id', {
    unique: true,
  });
  await createIndex(db, 'forked_project_links_from', 'forked_project_links', 'forked_from_project_id');

  await withId(db.schema.createTable('events'), dialect)
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('action', 'integer', (c) => c.notNull())
    .addColumn('target_id', 'integer')
    .addColumn('target_type', 'text')
    .addColumn('title', 'text')
    .addColumn('data', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'events_project_id', 'events', 'project_id, id');
  await createIndex(db, 'events_author_id', 'events', 'author_id, id');
};
