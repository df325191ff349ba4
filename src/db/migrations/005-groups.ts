// Groups: list groups in id order without walking every personal namespace, and find namespaces by name
// (fork targets given by name, the case-sensitive uniqueness check of group names).
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await createIndex(db, 'namespaces_type_id', 'namespaces', 'type, id');
  await createIndex(db, 'namespaces_name_lower', 'namespaces', 'lower(name)');
};
