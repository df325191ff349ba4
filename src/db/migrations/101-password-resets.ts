// Forgotten passwords (Devise's recoverable, as GitLab 8.13 configured it: a link valid for 2 days): the
// link's secret is stored only as its SHA-256; a row is used once.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('password_resets'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'password_resets_token_hash', 'password_resets', 'token_hash', { unique: true });
  await createIndex(db, 'password_resets_user', 'password_resets', 'user_id');
};
