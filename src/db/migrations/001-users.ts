// Users, their identities, SSH keys, secondary emails, namespaces and application settings.
import { createIndex, withId, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await withId(db.schema.createTable('users'), dialect)
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('encrypted_password', 'text', (c) => c.notNull())
    .addColumn('authentication_token', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('external', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('can_create_group', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('projects_limit', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('bio', 'text')
    .addColumn('location', 'text')
    .addColumn('skype', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('linkedin', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('twitter', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('website_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('organization', 'text')
    .addColumn('theme_id', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('color_scheme_id', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('two_factor_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confirmed_at', 'text')
    .addColumn('last_sign_in_at', 'text')
    .addColumn('current_sign_in_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'users_username_lower', 'users', 'lower(username)', { unique: true });
  await createIndex(db, 'users_email_lower', 'users', 'lower(email)', { unique: true });
  await createIndex(db, 'users_authentication_token', 'users', 'authentication_token', { unique: true });

  await withId(db.schema.createTable('identities'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('extern_uid', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'identities_user_provider', 'identities', 'user_id, provider', { unique: true });

  await withId(db.schema.createTable('keys'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'keys_fingerprint', 'keys', 'fingerprint', { unique: true });
  await createIndex(db, 'keys_user_id', 'keys', 'user_id, id');

  await withId(db.schema.createTable('emails'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'emails_email_lower', 'emails', 'lower(email)', { unique: true });
  await createIndex(db, 'emails_user_id', 'emails', 'user_id, id');

  await withId(db.schema.createTable('namespaces'), dialect)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('type', 'text')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('visibility_level', 'integer', (c) => c.notNull().defaultTo(20))
    .addColumn('request_access_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lfs_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('share_with_group_lock', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'namespaces_path_lower', 'namespaces', 'lower(path)', { unique: true });
  await createIndex(db, 'namespaces_owner_id', 'namespaces', 'owner_id', { where: 'type is null' });

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
};
