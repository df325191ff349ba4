// A milestone's start date (GitLab's start_date, a calendar day or null), which v4's Milestone entity
// shows and its create and edit take; and the title lookups of v4's `title` filter use the project's
// (project_id, title) index that milestone titles already have.
import type { MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await db.schema.alterTable('milestones').addColumn('start_date', 'text').execute();
};
