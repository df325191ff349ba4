// A push recorded with `ci_skip` makes no pipelines when processed (GitLab's `ci.skip` push option; a
// merge request's rebase with skip_ci moves its branch so), whether it is processed at once or by the
// start-up recovery of pending pushes.
import { sql } from 'kysely';
import type { MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await db.schema
    .alterTable('pushes')
    .addColumn('ci_skip', 'integer', (c) => c.notNull().defaultTo(sql.raw('0')))
    .execute();
};
