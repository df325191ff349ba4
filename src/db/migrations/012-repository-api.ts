// Release notes of tags, and the journal of repository moves (a project transferred to another
// namespace: the row commits with the namespace change and stays until its directories have moved, so a
// crash between the two is finished at the next start-up instead of losing the repository).
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('releases'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'releases_project_tag', 'releases', 'project_id, tag', { unique: true });

  await withId(db.schema.createTable('repository_moves'), dialect)
    // No foreign key: the move must finish even if the project is deleted meanwhile.
    .addColumn('project_id', 'integer', (c) => c.notNull())
    // `<namespace path>/<project path>` before and after
    .addColumn('from_path', 'text', (c) => c.notNull())
    .addColumn('to_path', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'repository_moves_project_id', 'repository_moves', 'project_id');
};
