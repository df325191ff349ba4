// CommitStatus as v4 shows it: v3's fields with the build's coverage and pipeline before the author.
import type { CiBuildRow, UserRow } from '../../db/types.ts';
import { presentCommitStatus as presentV3CommitStatus } from '../api-v3/commit-status.ts';

export function presentCommitStatus(
  status: CiBuildRow,
  sha: string,
  author: UserRow | undefined,
  baseUrl: string,
) {
  const { author: presentedAuthor, ...fields } = presentV3CommitStatus(status, sha, author, baseUrl);
  return { ...fields, coverage: status.coverage, pipeline_id: status.pipeline_id, author: presentedAuthor };
}
