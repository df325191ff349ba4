// Personal access tokens (GitLab's PersonalAccessToken): a user's named secrets with scopes, an optional
// expiry day and revocation. Only the SHA-256 of the secret is kept (hex), so the one unique index on it
// finds the token of a request in one indexed read, and a database dump holds no usable token. A user's
// tokens go with the user (cascade); user_id leads the index that lists them, newest first.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('personal_access_tokens'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('token_digest', 'text', (c) => c.notNull())
    // Space-separated, in the order given (GitLab serialised an array).
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await createIndex(db, 'personal_access_tokens_token_digest', 'personal_access_tokens', 'token_digest', {
    unique: true,
  });
  await createIndex(db, 'personal_access_tokens_user_id', 'personal_access_tokens', 'user_id, id');
};
