// The CommitStatus entity (GitLab 8.13): a build or an external status as a commit's status list shows
// it; `sha` is its pipeline's commit, `author` the user who made it (UserBasic) or null.
import type { CiBuildRow, UserRow } from '../../db/types.ts';
import { presentUserBasic } from './user.ts';

export function presentCommitStatus(
  status: CiBuildRow,
  sha: string,
  author: UserRow | undefined,
  baseUrl: string,
) {
  return {
    id: status.id,
    sha,
    ref: status.ref,
    status: status.status,
    name: status.name,
    target_url: status.target_url,
    description: status.description,
    created_at: status.created_at,
    started_at: status.started_at,
    finished_at: status.finished_at,
    allow_failure: status.allow_failure === 1,
    author: author ? presentUserBasic(author, baseUrl) : null,
  };
}
