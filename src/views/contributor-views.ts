// GET …/repository/contributors: authors of the default branch (404 while the repository has none).
import type { Deps } from '../deps.ts';
import { contributors } from '../git/contributors.ts';
import { presentContributor } from '../presenters/api-v3/contributor.ts';
import { defaultRef, requireCommitId } from './repository-access.ts';
import type { ProjectRecord } from '../db/types.ts';

export async function repositoryContributors(deps: Deps, record: ProjectRecord) {
  const { repoPath, commitId } = await requireCommitId(deps, record, defaultRef(record), null);
  return (await contributors(repoPath, commitId)).map(presentContributor);
}
