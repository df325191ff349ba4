// Pages for people: server-side sessions behind a cookie, and the failed sign-in limiter's state.
// web_sessions keeps only the SHA-256 of the cookie's secret (a database dump is no session), the
// form token of the session, and the expiry that every lookup compares with. sign_in_failures and
// sign_in_bans live here rather than in memory so that several processes behind one load balancer
// count an address's failures together.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('web_sessions'), dialect)
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'web_sessions_token_hash', 'web_sessions', 'token_hash', { unique: true });
  // Sign-out everywhere (a password change) and the purge of expired rows.
  await createIndex(db, 'web_sessions_user_id', 'web_sessions', 'user_id');
  await createIndex(db, 'web_sessions_expires_at', 'web_sessions', 'expires_at');

  await withId(db.schema.createTable('sign_in_failures'), dialect)
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'sign_in_failures_address', 'sign_in_failures', 'address, failed_at');

  await db.schema
    .createTable('sign_in_bans')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('banned_until', 'text', (c) => c.notNull())
    .execute();
};
