// v4's pipeline list filters by what made a pipeline and by who ran it, newest first: an index for each,
// led by the project, so a filtered page walks only the rows it shows.
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await createIndex(db, 'ci_pipelines_project_source', 'ci_pipelines', 'project_id, source, id');
  await createIndex(db, 'ci_pipelines_project_user', 'ci_pipelines', 'project_id, user_id, id');
};
