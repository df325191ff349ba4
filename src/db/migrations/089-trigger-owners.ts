// v4's triggers have a description and an owner: the user whose pipelines they run and who alone sees
// the whole token; someone else may take ownership. Triggers made before (through v3) have neither.
import type { MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await db.schema.alterTable('ci_triggers').addColumn('description', 'text').execute();
  await db.schema
    .alterTable('ci_triggers')
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
};
