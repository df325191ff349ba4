// How many projects there are at each visibility level, archived or not, kept by triggers: X-Total of
// GET /projects/visible is then these counters (a few rows per level) plus the caller's own private
// projects (an index walk over the caller's memberships), instead of a count(*) over every visible
// project. Triggers, not application code, so that every way a project comes, goes or changes level
// (create, fork, import, delete, a namespace's deletion cascading to its projects, archive, edit) is
// counted in its own transaction.
//
// Each level's count is split over SHARDS rows (by project id): a counter row stays locked until its
// transaction commits, and a project create holds its transaction open while it places the repository
// on disk, so one row per level would make concurrent creates on PostgreSQL wait for each other. Every
// trigger locks the rows it moves in (visibility_level, archived, shard) order first, so two changes
// moving the same pair of rows in opposite directions (public to private and back) cannot deadlock.
import { sql } from 'kysely';
import type { MigrationFn } from './helpers.ts';

const SHARDS = 16;
const LEVELS = [0, 10, 20];

export const up: MigrationFn = async (db, dialect) => {
  await db.schema
    .createTable('project_counts')
    .addColumn('visibility_level', 'integer', (c) => c.notNull())
    .addColumn('archived', 'integer', (c) => c.notNull())
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('project_counts_pkey', ['visibility_level', 'archived', 'shard'])
    .execute();
  // Every row a valid project can move exists from the start (the triggers then only update: an insert
  // racing another insert of the same new row would wait on it outside the lock order), holding the
  // projects created before this migration.
  const existing = await sql<{
    visibility_level: number;
    archived: number;
    shard: number;
    count: number | string;
  }>`
    select visibility_level, archived, id % ${sql.lit(SHARDS)} as shard, count(*) as count
    from projects group by visibility_level, archived, id % ${sql.lit(SHARDS)}`.execute(db);
  const counted = new Map(
    existing.rows.map((row) => [`${row.visibility_level}/${row.archived}/${row.shard}`, Number(row.count)]),
  );
  const levels = new Set([...LEVELS, ...existing.rows.map((row) => row.visibility_level)]);
  const rows = [...levels].flatMap((level) =>
    [0, 1].flatMap((archived) =>
      Array.from({ length: SHARDS }, (_, shard) => ({
        visibility_level: level,
        archived,
        shard,
        count: counted.get(`${level}/${archived}/${shard}`) ?? 0,
      })),
    ),
  );
  await db.insertInto('project_counts').values(rows).execute();

  const key = `visibility_level, archived, shard`;
  const add = (row: string) =>
    `insert into project_counts (${key}, count) ` +
    `values (${row}.visibility_level, ${row}.archived, ${row}.id % ${SHARDS}, 1) ` +
    `on conflict (${key}) do update set count = project_counts.count + 1`;
  const remove = (row: string) =>
    `update project_counts set count = count - 1 where visibility_level = ${row}.visibility_level ` +
    `and archived = ${row}.archived and shard = ${row}.id % ${SHARDS}`;
  const changed = 'old.visibility_level <> new.visibility_level or old.archived <> new.archived';

  if (dialect === 'sqlite') {
    // One writer at a time: no lock order to keep.
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
    return;
  }

  // Inserts and deletes: statement triggers with transition tables, so a multi-row insert (or a
  // namespace's projects cascading away) moves each counter row once.
  const moved = (rows: string) =>
    `select visibility_level, archived, id % ${SHARDS} as shard, count(*) as n from ${rows} group by 1, 2, 3`;
  const lockInOrder = (rows: string) =>
    `perform 1 from project_counts c join (${moved(rows)}) d using (${key}) ` +
    `order by c.visibility_level, c.archived, c.shard for update of c`;
  await sql
    .raw(
      `create function project_counts_rows() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${lockInOrder('inserted')};
          insert into project_counts (${key}, count) select visibility_level, archived, shard, n from (${moved('inserted')}) d
            on conflict (${key}) do update set count = project_counts.count + excluded.count;
        else
          ${lockInOrder('deleted')};
          update project_counts c set count = c.count - d.n from (${moved('deleted')}) d
            where c.visibility_level = d.visibility_level and c.archived = d.archived and c.shard = d.shard;
        end if;
        return null;
      end $$`,
    )
    .execute(db);
  // Updates: a row trigger whose WHEN skips every update that leaves level and archived alone (the
  // frequent last_activity_at touch never calls the function).
  await sql
    .raw(
      `create function project_counts_change() returns trigger language plpgsql as $$
      begin
        perform 1 from project_counts where shard = old.id % ${SHARDS}
          and ((visibility_level = old.visibility_level and archived = old.archived)
            or (visibility_level = new.visibility_level and archived = new.archived))
          order by visibility_level, archived for update;
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
};
