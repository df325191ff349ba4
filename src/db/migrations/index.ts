// Every migration, in order. A new area adds one file and one line here; names never change once merged.
import { Migrator, type Migration } from 'kysely';
import type { Db } from '../connect.ts';
import type { MigrationFn } from './helpers.ts';
import { up as users } from './001-users.ts';
import { up as projects } from './002-projects.ts';
import { up as git } from './003-git.ts';
import { up as usersIndexes } from './003-users-indexes.ts';
import { up as gitForeignKeys } from './004-git-foreign-keys.ts';
import { up as usersFkIndexes } from './004-users-fk-indexes.ts';
import { up as groups } from './005-groups.ts';
import { up as hooks } from './004-hooks.ts';

const migrations: Array<[string, MigrationFn]> = [
  ['001-users', users],
  ['002-projects', projects],
  ['003-git', git],
  ['003-users-indexes', usersIndexes],
  ['004-git-foreign-keys', gitForeignKeys],
  ['004-users-fk-indexes', usersFkIndexes],
  ['005-groups', groups],
  ['004-hooks', hooks],
];

export async function migrate(db: Db): Promise<void> {
  const provided: Record<string, Migration> = {};
  for (const [name, up] of migrations) provided[name] = { up: (kysely) => up(kysely, db.dialect) };
  // Areas land in any order; a data dir migrated before a lower-numbered file arrived still takes it.
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => provided },
    allowUnorderedMigrations: true,
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
