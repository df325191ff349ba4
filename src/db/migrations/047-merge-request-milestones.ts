// Milestones of merge requests (GitLab 8.13's merge_requests.milestone_id): a milestone of the target
// project or none. Deleting the milestone leaves its MRs without one (8.13 nullified them); the index
// serves that and the lookup of a milestone's MRs. Labels need no column: label_links is polymorphic.
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await db.schema
    .alterTable('merge_requests')
    .addColumn('milestone_id', 'integer', (c) => c.references('milestones.id').onDelete('set null'))
    .execute();
  await createIndex(db, 'merge_requests_milestone', 'merge_requests', 'milestone_id');
};
