// How many projects there are at each visibility level, archived or not, kept by triggers: X-Total of
// GET /projects/visible is then these counters (one row read per level) plus the caller's own private
// projects (an index walk over the caller's memberships), instead of a count(*) over every visible
// project. Triggers, not application code, so that every way a project comes, goes or changes level
// (create, fork, import, delete, a namespace's deletion cascading to its projects, archive, edit) is
// counted in its own transaction.
import { sql } from 'kysely';
import type { MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await db.schema
    .createTable('project_counts')
    .addColumn('visibility_level', 'integer', (c) => c.notNull())
    .addColumn('archived', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('project_counts_pkey', ['visibility_level', 'archived'])
    .execute();

  const add = (row: string) =>
    `insert into project_counts (visibility_level, archived, count) ` +
    `values (${row}.visibility_level, ${row}.archived, 1) ` +
    `on conflict (visibility_level, archived) do update set count = project_counts.count + 1`;
  const remove = (row: string) =>
    `update project_counts set count = count - 1 ` +
    `where visibility_level = ${row}.visibility_level and archived = ${row}.archived`;
  const changed = 'old.visibility_level <> new.visibility_level or old.archived <> new.archived';

  if (dialect === 'postgres') {
    // Inserts and deletes: statement triggers with transition tables, so a multi-row insert (or a
    // namespace's projects cascading away) moves each counter once.
    await sql`
      create function project_counts_rows() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into project_counts (visibility_level, archived, count)
            select visibility_level, archived, count(*) from inserted group by visibility_level, archived
            on conflict (visibility_level, archived) do update set count = project_counts.count + excluded.count;
        else
          update project_counts c set count = c.count - d.n
            from (select visibility_level, archived, count(*) as n from deleted group by visibility_level, archived) d
            where c.visibility_level = d.visibility_level and c.archived = d.archived;
        end if;
        return null;
      end $$`.execute(db);
    // Updates: a row trigger whose WHEN skips every update that leaves level and archived alone (the
    // frequent last_activity_at touch never calls the function).
    await sql
      .raw(
        `create function project_counts_change() returns trigger language plpgsql as $$
        begin
          ${remove('old')};
          ${add('new')};
          return null;
        end $$`,
      )
      .execute(db);
    await sql`
      create trigger projects_counted_insert after insert on projects referencing new table as inserted
      for each statement execute function project_counts_rows()`.execute(db);
    await sql`
      create trigger projects_counted_delete after delete on projects referencing old table as deleted
      for each statement execute function project_counts_rows()`.execute(db);
    await sql
      .raw(
        `create trigger projects_counted_update after update of visibility_level, archived on projects ` +
          `for each row when (${changed}) execute function project_counts_change()`,
      )
      .execute(db);
  } else {
    await sql
      .raw(`create trigger projects_counted_insert after insert on projects begin ${add('new')}; end`)
      .execute(db);
    await sql
      .raw(`create trigger projects_counted_delete after delete on projects begin ${remove('old')}; end`)
      .execute(db);
    await sql
      .raw(
        `create trigger projects_counted_update after update of visibility_level, archived on projects ` +
          `when ${changed} begin ${remove('old')}; ${add('new')}; end`,
      )
      .execute(db);
  }

  // Projects created before this migration.
  await sql`
    insert into project_counts (visibility_level, archived, count)
      select visibility_level, archived, count(*) from projects group by visibility_level, archived`.execute(
    db,
  );
};
