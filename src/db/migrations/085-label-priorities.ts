// A project label's priority (GitLab's label_priorities, one per project label here since labels are
// the project's own): null for none, lower first. v4's Label entity shows it and takes it on create
// and edit.
import type { MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await db.schema.alterTable('labels').addColumn('priority', 'integer').execute();
};
