// Issue links (GitLab's issue_links, v4's /projects/:id/issues/:issue_iid/links): one row per related
// pair, source → target, `relates_to` or `blocks` (an `is_blocked_by` is stored as the other side's
// `blocks`). The unique (source_id, target_id) index refuses a second link of a pair in that direction;
// (target_id) serves the list of links that point at an issue. Both issues take their links with them.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('issue_links'), dialect)
    .addColumn('source_id', 'integer', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('target_id', 'integer', (c) => c.notNull().references('issues.id').onDelete('cascade'))
    .addColumn('link_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'issue_links_source_target', 'issue_links', 'source_id, target_id', { unique: true });
  await createIndex(db, 'issue_links_target', 'issue_links', 'target_id, source_id');
};
