// Kept counts of each project's merge requests by state (deleted ones not counted), so X-Total of a
// project's unfiltered merge request list, whole or of one state, reads a few rows at a million merge
// requests as at ten, instead of counting index entries up to the cap. Kept by triggers in the writing
// statement's own transaction: every way an MR comes, goes (a soft delete sets deleted_at), changes state
// or moves project, cascades included. Filled from the rows already there.
import { sql } from 'kysely';
import type { MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  await db.schema
    .createTable('merge_request_counts')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('merge_request_counts_pkey', ['project_id', 'state'])
    .execute();
  await sql`
    insert into merge_request_counts (project_id, state, count)
    select target_project_id, state, count(*) from merge_requests where deleted_at is null
    group by target_project_id, state`.execute(db);
  if (dialect === 'postgres') {
    // Statement triggers with transition tables for inserts and deletes (a bulk load or a project's
    // cascade moves each count once), a row trigger for the rare change of state or deletion mark.
    await sql`
      create function merge_request_counts_rows() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into merge_request_counts (project_id, state, count)
            select target_project_id, state, count(*) from inserted where deleted_at is null
            group by target_project_id, state
            on conflict (project_id, state) do update set count = merge_request_counts.count + excluded.count;
        else
          update merge_request_counts c set count = c.count - d.count
            from (select target_project_id, state, count(*) as count from deleted where deleted_at is null
                  group by target_project_id, state) d
            where c.project_id = d.target_project_id and c.state = d.state;
        end if;
        return null;
      end $$`.execute(db);
    await sql`
      create function merge_request_counts_row() returns trigger language plpgsql as $$
      begin
        if old.deleted_at is null then
          update merge_request_counts set count = count - 1
            where project_id = old.target_project_id and state = old.state;
        end if;
        if new.deleted_at is null then
          insert into merge_request_counts (project_id, state, count)
            values (new.target_project_id, new.state, 1)
            on conflict (project_id, state) do update set count = merge_request_counts.count + 1;
        end if;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger merge_requests_counted_insert after insert on merge_requests
      referencing new table as inserted
      for each statement execute function merge_request_counts_rows()`.execute(db);
    await sql`
      create trigger merge_requests_counted_delete after delete on merge_requests
      referencing old table as deleted
      for each statement execute function merge_request_counts_rows()`.execute(db);
    await sql`
      create trigger merge_requests_counted_update
      after update of state, deleted_at, target_project_id on merge_requests
      for each row when (old.state is distinct from new.state
        or old.deleted_at is distinct from new.deleted_at
        or old.target_project_id <> new.target_project_id)
      execute function merge_request_counts_row()`.execute(db);
    return;
  }
  await sql`
    create trigger merge_requests_counted_insert after insert on merge_requests
    when new.deleted_at is null begin
      insert into merge_request_counts (project_id, state, count) values (new.target_project_id, new.state, 1)
      on conflict (project_id, state) do update set count = count + 1; end`.execute(db);
  await sql`
    create trigger merge_requests_counted_delete after delete on merge_requests
    when old.deleted_at is null begin
      update merge_request_counts set count = count - 1
      where project_id = old.target_project_id and state = old.state; end`.execute(db);
  await sql`
    create trigger merge_requests_counted_update
    after update of state, deleted_at, target_project_id on merge_requests
    when old.state is not new.state or old.deleted_at is not new.deleted_at
      or old.target_project_id <> new.target_project_id begin
      update merge_request_counts set count = count - 1
      where old.deleted_at is null and project_id = old.target_project_id and state = old.state;
      insert into merge_request_counts (project_id, state, count)
      select new.target_project_id, new.state, 1 where new.deleted_at is null
      on conflict (project_id, state) do update set count = count + 1; end`.execute(db);
};
