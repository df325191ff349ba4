// Foreign keys that point at users need an index on the referencing column, or every user delete (and
// insert) makes the engine scan the referencing table. Found by test/db/query-plans.test.ts:
// - namespaces.owner_id (ON DELETE CASCADE): 001's owner index is partial (personal namespaces only);
// - pushes.user_id (ON DELETE SET NULL, 003-git) had no index at all.
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await createIndex(db, 'namespaces_owner_id_all', 'namespaces', 'owner_id');
  await createIndex(db, 'pushes_user_id', 'pushes', 'user_id');
};
