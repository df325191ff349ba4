// v4's POST /projects/:id/housekeeping: a full `git gc` of the project's repository, queued behind the
// project's push processing as the after-push `gc --auto` is (at most one queued per project), so the
// request does not wait for it, as GitLab's Sidekiq job does not; and where the repository lives on disk.
import path from 'node:path';
import type { Deps } from '../../deps.ts';
import {
  collectGarbage,
  projectRepositoryPath,
  repositoriesRoot,
  repositoryExists,
} from '../../git/repository.ts';
import type { ProjectRecord } from '../../db/types.ts';

export function scheduleHousekeeping(deps: Deps, record: ProjectRecord): void {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  deps.pushQueue.enqueueHousekeeping(record.project.id, async () => {
    try {
      await collectGarbage(repoPath);
    } catch (error) {
      // A project deleted or moved meanwhile is no failure.
      if (await repositoryExists(repoPath)) throw error;
    }
  });
}

/** The repository's path under the repositories root, `.git` left off (GET /projects/:id/storage). */
export function repositoryDiskPath(deps: Deps, record: ProjectRecord): string {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const relative = path.relative(repositoriesRoot(deps.config.dataDir), repoPath);
  return relative
    .split(path.sep)
    .join('/')
    .replace(/\.git$/, '');
}
