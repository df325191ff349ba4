// How many builds and pipelines each project has, kept by triggers: X-Total of GET /projects/:id/builds
// and /pipelines then costs one row read at a million builds as at a hundred (a count(*) walks every
// index entry of the project). Triggers, not application code, so that every way a row comes or goes
// (pipelines from pushes and triggers, retries, a project's deletion) is counted in its own transaction.
// External commit statuses share ci_builds but are not builds: they are not counted.
import { sql } from 'kysely';
import type { MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await db.schema
    .createTable('ci_list_counts')
    .addColumn('project_id', 'integer', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('builds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pipelines', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  if (dialect === 'postgres') {
    // Statement triggers with transition tables: a multi-row insert moves each count once.
    await sql`
      create function ci_list_counts_builds() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into ci_list_counts (project_id, builds)
            select project_id, count(*) from inserted where type = 'build' group by project_id
            on conflict (project_id) do update set builds = ci_list_counts.builds + excluded.builds;
        else
          update ci_list_counts c set builds = c.builds - d.n
            from (select project_id, count(*) as n from deleted where type = 'build' group by project_id) d
            where c.project_id = d.project_id;
        end if;
        return null;
      end $$`.execute(db);
    await sql`
      create function ci_list_counts_pipelines() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into ci_list_counts (project_id, pipelines)
            select project_id, count(*) from inserted group by project_id
            on conflict (project_id) do update set pipelines = ci_list_counts.pipelines + excluded.pipelines;
        else
          update ci_list_counts c set pipelines = c.pipelines - d.n
            from (select project_id, count(*) as n from deleted group by project_id) d
            where c.project_id = d.project_id;
        end if;
        return null;
      end $$`.execute(db);
    for (const table of ['ci_builds', 'ci_pipelines']) {
      const fn = table === 'ci_builds' ? 'ci_list_counts_builds' : 'ci_list_counts_pipelines';
      await sql
        .raw(
          `create trigger ${table}_counted_insert after insert on ${table} referencing new table as inserted ` +
            `for each statement execute function ${fn}()`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ${table}_counted_delete after delete on ${table} referencing old table as deleted ` +
            `for each statement execute function ${fn}()`,
        )
        .execute(db);
    }
  } else {
    for (const [table, column, onlyBuilds] of [
      ['ci_builds', 'builds', true],
      ['ci_pipelines', 'pipelines', false],
    ] as const) {
      const when = (row: string) => (onlyBuilds ? `when ${row}.type = 'build' ` : '');
      await sql
        .raw(
          `create trigger ${table}_counted_insert after insert on ${table} ${when('new')}begin ` +
            `insert into ci_list_counts (project_id, ${column}) values (new.project_id, 1) ` +
            `on conflict (project_id) do update set ${column} = ${column} + 1; end`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger ${table}_counted_delete after delete on ${table} ${when('old')}begin ` +
            `update ci_list_counts set ${column} = ${column} - 1 where project_id = old.project_id; end`,
        )
        .execute(db);
    }
  }

  // Rows written before this migration.
  await sql`
    insert into ci_list_counts (project_id, builds, pipelines)
      select p.id,
        (select count(*) from ci_builds b where b.project_id = p.id and b.type = 'build'),
        (select count(*) from ci_pipelines q where q.project_id = p.id)
      from projects p
      where exists (select 1 from ci_pipelines q where q.project_id = p.id)`.execute(db);
};
