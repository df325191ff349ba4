// v4's Issue and MergeRequest entities show when and by whom each was closed or merged (closed_at,
// closed_by, merged_at): the newest such event of each issuable on a page, read by its target.
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await createIndex(db, 'events_target', 'events', 'target_type, target_id, action, id');
};
