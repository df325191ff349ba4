// PostgreSQL: vacuum `projects` after 1% of its rows changed rather than 20%. A page of a project list is
// an index-only walk over projects_list_* (019), which reads the table only for entries on pages the
// visibility map does not mark all-visible, and only vacuum marks them. Every push moves a project's
// last_activity_at (an indexed column, so never a HOT update), leaving such pages behind: on 10,000
// projects, page 201 of /projects/visible walked 4,020 entries in 1.3 ms on a vacuumed table and 12 ms
// after every row had changed once. SQLite has no such walk to the table (its indexes carry no versions).
import { sql } from 'kysely';
import type { MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db, dialect) => {
  if (dialect !== 'postgres') return;
  await sql`alter table projects set (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01)`.execute(
    db,
  );
};
