// namespaces.owner_id references users with ON DELETE CASCADE, but 001's owner index is partial (personal
// namespaces only), so every user delete (and insert) had the engine scan all namespaces for the foreign
// key. A full index on owner_id lets the check search instead (found by test/db/query-plans.test.ts).
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await createIndex(db, 'namespaces_owner_id_all', 'namespaces', 'owner_id');
};
