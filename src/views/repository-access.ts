// The repository a read works on, and the commit a client names in it: what every repository view starts
// with. A project without a repository on disk reads as one without commits.
import type { Deps } from '../deps.ts';
import { projectRepositoryPath, repositoryExists } from '../git/repository.ts';
import { resolveCommit } from '../git/revisions.ts';
import { notFound } from '../errors.ts';
import type { ProjectRecord } from '../db/types.ts';

/** The ref a read uses when the client names none: the default branch (`master` before the first push). */
export function defaultRef(record: ProjectRecord): string {
  return record.project.default_branch ?? 'master';
}

/** The commit `revision` names, or undefined (also when the project has no repository). */
export async function findCommitId(
  deps: Deps,
  record: ProjectRecord,
  revision: string,
): Promise<{ repoPath: string; commitId: string } | undefined> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  if (!(await repositoryExists(repoPath))) return undefined;
  const commitId = await resolveCommit(repoPath, revision);
  return commitId ? { repoPath, commitId } : undefined;
}

/** findCommitId, or 404 `404 <resource> Not Found` (`404 Not Found` for null). */
export async function requireCommitId(
  deps: Deps,
  record: ProjectRecord,
  revision: string,
  resource: string | null = 'Commit',
): Promise<{ repoPath: string; commitId: string }> {
  const found = await findCommitId(deps, record, revision);
  if (!found) throw notFound(resource ?? undefined);
  return found;
}
