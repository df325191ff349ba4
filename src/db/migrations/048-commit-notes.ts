// Comments on commits (GitLab 8.13's notes with noteable_type `Commit`) name their commit by sha in
// commit_id, not by noteable_id; a commit's comments are read oldest first within the project.
import { createIndex, type MigrationFn } from './helpers.ts';

export const up: MigrationFn = async (db) => {
  await createIndex(db, 'notes_commit', 'notes', 'project_id, commit_id, created_at, id', {
    where: 'commit_id is not null',
  });
};
