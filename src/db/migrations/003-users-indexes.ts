// Indexes the users area needs beyond 001: the `active` filter of GET /users walks (state, id), and an
// identity's extern_uid is unique per provider (GitLab's Identity validation) when it is not blank.
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await createIndex(db, 'users_state_id', 'users', 'state, id');
  await createIndex(db, 'identities_provider_extern_uid', 'identities', 'provider, extern_uid', {
    unique: true,
    where: "extern_uid <> ''",
  });
};
