// Issue boards (GitLab 8.13's boards and lists): a project's boards, each with its lists. A list is the
// Backlog (list_type 0), a label's list (1, with its label and a position from 0) or Done (2). A label's
// deletion takes its lists with it, as 8.13's `has_many :lists, dependent: :destroy` did. Board lists'
// issues are read newest first by id: a label's list walks label_links (label_id, target_type,
// target_id) backwards; the Backlog and Done walk the new (project_id, closed, id) index of issues and
// skip the issues that carry a board label through label_links (target_type, target_id, label_id).
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('boards'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('hide_backlog_list', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hide_closed_list', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'boards_project', 'boards', 'project_id, id');

  await withId(db.schema.createTable('lists'), dialect)
    .addColumn('board_id', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('label_id', 'integer', (c) => c.references('labels.id').onDelete('cascade'))
    .addColumn('list_type', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'lists_board_label', 'lists', 'board_id, label_id', {
    unique: true,
    where: 'label_id is not null',
  });
  await createIndex(db, 'lists_board_type_position', 'lists', 'board_id, list_type, position');
  await createIndex(db, 'lists_label', 'lists', 'label_id');

  await createIndex(db, 'issues_project_closed_id', 'issues', 'project_id, closed, id');
};
