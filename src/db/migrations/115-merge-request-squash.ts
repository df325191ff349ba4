// v4's squash: `squash` is the MR's own wish (set on create and edit, or by `squash: true` on merge),
// `squash_commit_sha` names the one commit a squashing merge wrote (its tree the merge result, its
// parent the target head) before merging it; both shown on the MR entity.
import { sql } from 'kysely';
import type { MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await db.schema
    .alterTable('merge_requests')
    .addColumn('squash', 'integer', (c) => c.notNull().defaultTo(sql.raw('0')))
    .execute();
  await db.schema.alterTable('merge_requests').addColumn('squash_commit_sha', 'text').execute();
};
