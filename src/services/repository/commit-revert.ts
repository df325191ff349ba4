// POST …/repository/commits/:sha/revert (GitLab's Commits::RevertService): a commit undoing `sha` on
// top of `branch`, written without a work tree (git/rebase.ts's revertTree) and landed as a push by the
// caller, with its events, hooks and pipeline. A revert that conflicts or would change nothing writes
// nothing anyone can see and answers GitLab's 400.
import type { Deps } from '../../deps.ts';
import { readCommits } from '../../git/commits.ts';
import { findBranch } from '../../git/refs.ts';
import { resolveCommit } from '../../git/revisions.ts';
import { revertTree } from '../../git/rebase.ts';
import { writeTreeCommit } from '../../git/merges.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { apiError, forbidden, notFound } from '../../errors.ts';
import { updateRefAsPush } from '../push/ref-updates.ts';
import { mayPushToBranch, userSignature, type Pusher } from '../push/push-setup.ts';

const CANNOT =
  'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, ' +
  'or a more recent commit may have updated some of its content.';

/** The new commit's id on `branch`. */
export async function revertCommit(
  deps: Deps,
  pusher: Pusher,
  revision: string,
  branch: string,
): Promise<string> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, pusher);
  const commitId = await resolveCommit(repoPath, revision);
  if (!commitId) throw notFound('Commit');
  const tip = await findBranch(repoPath, branch);
  if (!tip) throw notFound('Branch');
  if (!(await mayPushToBranch(deps, pusher, branch))) throw forbidden();
  const committer = userSignature(pusher);
  const reverted = await revertTree(repoPath, tip.commit.id, commitId, committer);
  if (!reverted.clean) throw apiError(400, CANNOT);
  const commit = (await readCommits(repoPath, [commitId])).get(commitId)!;
  const title = commit.message.split('\n')[0]!.trim();
  const id = await writeTreeCommit(repoPath, {
    tree: reverted.tree,
    parents: [tip.commit.id],
    message: `Revert "${title}"\n\nThis reverts commit ${commitId}.\n`,
    author: committer,
    committer,
  });
  await updateRefAsPush(
    deps,
    pusher,
    { before: tip.commit.id, after: id, ref: `refs/heads/${branch}` },
    `Could not update branch ${branch}. Please refresh and try again.`,
  );
  return id;
}
