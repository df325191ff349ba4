// Deploy keys (GitLab's DeployKey < Key): rows of the keys table with type 'DeployKey' and no user, so a
// fingerprint stays unique across personal and deploy keys (one unique index decides, also for two
// concurrent requests), and SSH finds either kind by that index. deploy_keys_projects links one key to
// the projects it may read. keys.user_id becomes nullable: PostgreSQL drops the constraint, SQLite
// rebuilds the table.
import { sql } from 'kysely';
import { createIndex, withId, type MigrationDb, type MigrationFn } from './helpers.ts';
import type { Dialect } from '../connect.ts';

async function rebuildKeys(db: MigrationDb, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('keys_new'), dialect)
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('type', 'text')
    .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into keys_new (id, user_id, title, key, fingerprint, created_at, updated_at)
    select id, user_id, title, key, fingerprint, created_at, updated_at from keys`.execute(db);
  await db.schema.dropTable('keys').execute();
  await db.schema.alterTable('keys_new').renameTo('keys').execute();
  await createIndex(db, 'keys_fingerprint', 'keys', 'fingerprint', { unique: true });
  await createIndex(db, 'keys_user_id', 'keys', 'user_id, id');
}

export const up: MigrationFn = async (db, dialect) => {
  if (dialect === 'postgres') {
    await sql`alter table keys alter column user_id drop not null`.execute(db);
    await sql`alter table keys add column type text`.execute(db);
    await sql`alter table keys add column public integer not null default 0`.execute(db);
  } else {
    await rebuildKeys(db, dialect);
  }
  // GET /deploy_keys (administrators) walks only the deploy keys.
  await createIndex(db, 'keys_deploy', 'keys', 'id', { where: "type = 'DeployKey'" });

  await withId(db.schema.createTable('deploy_keys_projects'), dialect)
    .addColumn('deploy_key_id', 'integer', (c) => c.notNull().references('keys.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndex(
    db,
    'deploy_keys_projects_project_key',
    'deploy_keys_projects',
    'project_id, deploy_key_id',
    {
      unique: true,
    },
  );
  await createIndex(db, 'deploy_keys_projects_key', 'deploy_keys_projects', 'deploy_key_id, project_id');
};
