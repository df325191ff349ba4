// One index per order a project list may ask for (order_by created_at, last_activity_at, updated_at,
// name, path or id; then id, asc or desc), each carrying visibility_level and archived: a page of
// GET /projects/visible walks the index in list order, decides visibility and the archived filter from
// the index entry alone, and stops after offset + per_page visible projects. No project row is read
// until the page's ids are known. They replace 017's (created_at, id) and (last_activity_at, id), which
// sent the walk to the table for every entry to read its visibility.
import { sql } from 'kysely';
import { createIndex, type MigrationFn } from './helpers.ts';

const PROJECT_LIST_ORDERS = ['created_at', 'last_activity_at', 'updated_at', 'name', 'path'] as const;

export const up: MigrationFn = async (db) => {
  for (const column of PROJECT_LIST_ORDERS) {
    await createIndex(db, `projects_list_${column}`, 'projects', `${column}, id, visibility_level, archived`);
  }
  await createIndex(db, 'projects_list_id', 'projects', 'id, visibility_level, archived');
  await sql`drop index projects_created_at_id`.execute(db);
  await sql`drop index projects_last_activity_at_id`.execute(db);
};
