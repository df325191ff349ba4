// Uploaded avatars of users and groups (projects have had their column since 002): the stored file's
// sanitized name, served at /uploads/<user|group>/avatar/<id>/<name>; null when none was uploaded.
import type { MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await db.schema.alterTable('users').addColumn('avatar', 'text').execute();
  await db.schema.alterTable('namespaces').addColumn('avatar', 'text').execute();
};
