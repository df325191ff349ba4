// protected_branches and pushes were created (003-git) before the projects table reached main, so their
// project_id had no foreign key. Now it cascades: deleting a project removes its rules and pushes.
// PostgreSQL adds the constraints; SQLite cannot, so there the two tables are rebuilt.
import { sql } from 'kysely';
import { createIndex, withId, type MigrationDb, type MigrationFn } from './helpers.ts';
import type { Dialect } from '../connect.ts';

async function rebuildProtectedBranches(db: MigrationDb, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('protected_branches_new'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('developers_can_push', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('developers_can_merge', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into protected_branches_new select id, project_id, name, developers_can_push,
    developers_can_merge, created_at, updated_at from protected_branches
    where project_id in (select id from projects)`.execute(db);
  await db.schema.dropTable('protected_branches').execute();
  await db.schema.alterTable('protected_branches_new').renameTo('protected_branches').execute();
  await createIndex(db, 'protected_branches_project_name', 'protected_branches', 'project_id, name', {
    unique: true,
  });
}

async function rebuildPushes(db: MigrationDb, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('pushes_new'), dialect)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('applied_changes', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text')
    .execute();
  await sql`insert into pushes_new select id, project_id, user_id, changes, status, applied_changes,
    created_at, processed_at from pushes where project_id in (select id from projects)`.execute(db);
  // 004-users-fk-indexes may have run first (areas land in any order): keep its index across the rebuild.
  const userIndex = await sql<{ name: string }>`select name from sqlite_master
    where type = 'index' and tbl_name = 'pushes' and name = 'pushes_user_id'`.execute(db);
  await db.schema.dropTable('pushes').execute();
  await db.schema.alterTable('pushes_new').renameTo('pushes').execute();
  await createIndex(db, 'pushes_pending', 'pushes', 'id', { where: "status = 'pending'" });
  await createIndex(db, 'pushes_project_id', 'pushes', 'project_id, id');
  if (userIndex.rows.length > 0) await createIndex(db, 'pushes_user_id', 'pushes', 'user_id');
}

export const up: MigrationFn = async (db, dialect) => {
  if (dialect === 'postgres') {
    for (const table of ['protected_branches', 'pushes']) {
      await sql.raw(`delete from ${table} where project_id not in (select id from projects)`).execute(db);
      await sql
        .raw(
          `alter table ${table} add constraint ${table}_project_id_fk foreign key (project_id) ` +
            `references projects (id) on delete cascade`,
        )
        .execute(db);
    }
    return;
  }
  await rebuildProtectedBranches(db, dialect);
  await rebuildPushes(db, dialect);
};
