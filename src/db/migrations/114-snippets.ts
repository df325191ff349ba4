// Snippets (GitLab 8.13's snippets table, STI on `type`): a project's (ProjectSnippet, project_id set) or a
// user's own (PersonalSnippet, project_id null). Lists walk an index newest first: a project's on
// (project_id, id), a user's own on (author_id, id), and the public and internal personal ones on
// (visibility_level, id) among personal snippets only, so each list costs what its page costs.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('snippets'), dialect)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('author_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('visibility_level', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'snippets_project', 'snippets', 'project_id, id');
  await createIndex(db, 'snippets_author', 'snippets', 'author_id, id');
  await createIndex(db, 'snippets_personal_visibility', 'snippets', 'visibility_level, id', {
    where: 'project_id is null',
  });
};
