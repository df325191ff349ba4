// The commits of a merge request as git reads them, and the issues its merge closes (GitLab 8.13's
// MergeRequest#closes_issues and PostMergeService#close_issues): a merge into the default branch closes
// the issues of the target project that its description and commit messages name with the closing
// pattern, each by the merging user where that user may update it, with the note `Status changed to
// closed by merge request !N`. It runs in the push's transaction before the commit messages' own
// closing, so an issue named in both says it was the merge request.
import type { Deps } from '../../deps.ts';
import { findIssuesByIids } from '../../db/repositories/issues.ts';
import { listMergeRequestDiffs } from '../../db/repositories/merge-request-diffs.ts';
import { collectCommits } from '../../git/commit-log.ts';
import { resolveRefs } from '../../git/refs.ts';
import { projectAccess } from '../../policies/access.ts';
import { canReadIssue, canUpdateIssue } from '../../policies/issues.ts';
import { closeIssueIn } from '../issues/issue-activity.ts';
import { closedIids } from '../push/issue-closing.ts';
import { ensureHeadInTarget } from './merge-requests.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import type { Executor, MergeRequestRow, ProjectRecord, UserRow } from '../../db/types.ts';

/**
 * What the MR's commits and changes are read against: the target branch's head, or for a merged MR the
 * target as the merge found it (after a merge the target holds every commit, which would leave the
 * Commits and Changes of a merged MR empty; 8.13 kept them).
 */
export async function comparisonBase(
  deps: Deps,
  target: ProjectRecord,
  mr: MergeRequestRow,
): Promise<string | undefined> {
  if (mr.merge_commit_sha) return `${mr.merge_commit_sha}^1`;
  if (mr.state === 'merged') {
    // Merged by a push of its commits to the target: the merge base its last version recorded.
    const [latest] = await listMergeRequestDiffs(deps.db.kysely, mr.id);
    if (latest?.base_commit_sha) return latest.base_commit_sha;
  }
  const ref = `refs/heads/${mr.target_branch}`;
  return (await resolveRefs(projectRepositoryPath(deps.config.dataDir, target), [ref])).get(ref);
}

/** The MR's commits as git reads them, newest first: those of its head that the target branch lacks. */
export async function mergeRequestGitCommits(deps: Deps, target: ProjectRecord, mr: MergeRequestRow) {
  if (!(await ensureHeadInTarget(deps, target, mr))) return [];
  const base = await comparisonBase(deps, target, mr);
  return collectCommits(projectRepositoryPath(deps.config.dataDir, target), [
    mr.head_sha!,
    ...(base ? [`^${base}`] : []),
    '--',
  ]);
}

/** The iids the MR closes, in the order they are named: none unless it targets the default branch. */
export async function closingIssueIids(
  deps: Deps,
  target: ProjectRecord,
  mr: MergeRequestRow,
): Promise<number[]> {
  if (mr.target_branch !== target.project.default_branch) return [];
  const commits = await mergeRequestGitCommits(deps, target, mr);
  const messages = [mr.description ?? '', ...commits.map((commit) => commit.message)];
  return closedIids(messages.join('\n'), `${target.namespace.path}/${target.project.path}`);
}

/** In the merge's transaction: closes the issues `iids` names that `user` may read and update. */
export async function closeIssuesOnMerge(
  trx: Executor,
  deps: Deps,
  target: ProjectRecord,
  user: UserRow,
  mr: MergeRequestRow,
  iids: number[],
  at: string,
): Promise<void> {
  if (iids.length === 0) return;
  const access = await projectAccess(trx, user, target);
  for (const issue of await findIssuesByIids(trx, target.project.id, iids)) {
    if (!canReadIssue(user, access, target, issue) || !canUpdateIssue(user, access, target, issue)) continue;
    await closeIssueIn(trx, deps, target, user, issue, at, `merge request !${mr.iid}`);
  }
}
