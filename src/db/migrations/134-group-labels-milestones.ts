// Group labels and group milestones (GitLab's GroupLabel and group milestones): rows of labels and
// milestones that belong to a group (`group_id`) instead of a project, so label_links, issues'
// and merge requests' milestone_id and subscriptions name either kind without a second road. A row has
// exactly one of project_id and group_id; titles are unique within their group as within a project; a
// group milestone's iid counts within its group. project_id (and subscriptions' project_id, for a
// subscription to a group label made on the group) becomes nullable: PostgreSQL drops the constraint;
// SQLite rebuilds the table from its own stored definition (so columns other areas added survive) with
// foreign keys off, so rows that point at it are neither cascaded nor nulled.
import { sql } from 'kysely';
import { createIndex, type MigrationDb, type MigrationFn } from './helpers.ts';

async function relaxSqliteNotNull(db: MigrationDb, table: string, column: string): Promise<void> {
  const rows = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = ${table}`.execute(db);
  const definition = rows.rows.find((row) => row.type === 'table')?.sql;
  if (!definition) throw new Error(`no table ${table}`);
  const pattern = new RegExp(`("?${column}"?\\s+integer)\\s+not null`, 'i');
  if (!pattern.test(definition)) return;
  const relaxed = definition
    .replace(pattern, '$1')
    .replace(new RegExp(`^create table\\s+"?${table}"?`, 'i'), `create table "${table}_relaxed"`);
  const indexes = rows.rows.filter((row) => row.type === 'index' && row.sql !== null).map((row) => row.sql!);
  await sql.raw(relaxed).execute(db);
  await sql.raw(`insert into "${table}_relaxed" select * from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${table}_relaxed" rename to "${table}"`).execute(db);
  for (const index of indexes) await sql.raw(index).execute(db);
}

export const up: MigrationFn = async (db, dialect) => {
  if (dialect === 'postgres') {
    for (const table of ['labels', 'milestones', 'subscriptions'])
      await sql.raw(`alter table ${table} alter column project_id drop not null`).execute(db);
  } else {
    // SQLite runs migrations outside a transaction, so the pragma takes effect; one transaction keeps the
    // three rebuilds whole.
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      await sql`begin`.execute(db);
      for (const table of ['labels', 'milestones', 'subscriptions'])
        await relaxSqliteNotNull(db, table, 'project_id');
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    } finally {
      await sql`pragma foreign_keys = on`.execute(db);
    }
  }
  for (const table of ['labels', 'milestones'])
    await db.schema
      .alterTable(table)
      .addColumn('group_id', 'integer', (c) => c.references('namespaces.id').onDelete('cascade'))
      .execute();
  await createIndex(db, 'labels_group_title', 'labels', 'group_id, title', {
    unique: true,
    where: 'group_id is not null',
  });
  await createIndex(db, 'milestones_group_iid', 'milestones', 'group_id, iid', {
    unique: true,
    where: 'group_id is not null',
  });
  await createIndex(db, 'milestones_group_title', 'milestones', 'group_id, title', {
    unique: true,
    where: 'group_id is not null',
  });
  await createIndex(db, 'milestones_group_state', 'milestones', 'group_id, state, id', {
    where: 'group_id is not null',
  });
};
