// v4's triggers have a description and an owner: the user whose pipelines they run and who alone sees
// the whole token; someone else may take ownership. Triggers made before (through v3) have neither.
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await db.schema.alterTable('ci_triggers').addColumn('description', 'text').execute();
  await db.schema
    .alterTable('ci_triggers')
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  // A user's deletion finds the triggers they own.
  await createIndex(db, 'ci_triggers_owner', 'ci_triggers', 'owner_id', { where: 'owner_id is not null' });
};
