// Broadcast messages (GitLab's BroadcastMessage): an administrator's banner shown on every page between
// starts_at and ends_at. Pages read the ones not yet ended through the ends_at index.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('broadcast_messages'), dialect)
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addColumn('color', 'text')
    .addColumn('font', 'text')
    // v4's additions: a path glob the banner is limited to, and 'banner' or 'notification'.
    .addColumn('target_path', 'text')
    .addColumn('broadcast_type', 'text', (c) => c.notNull().defaultTo('banner'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'broadcast_messages_ends_at', 'broadcast_messages', 'ends_at, id');
};
