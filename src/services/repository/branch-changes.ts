// Creating and deleting branches through the API (GitLab 8.13's CreateBranchService and
// DeleteBranchService), each a push of one ref: push rules, pending push, compare-and-swap, processing.
import type { Deps } from '../../deps.ts';
import { listProtectedBranches } from '../../db/repositories/protected-branches.ts';
import { findBranch, mergedBranchNames, type Branch } from '../../git/refs.ts';
import { isValidRefName } from '../../git/ref-writes.ts';
import { resolveCommit } from '../../git/revisions.ts';
import { branchProtection, type BranchProtection } from '../../policies/protected-branches.ts';
import { ApiError, apiError } from '../../errors.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { updateRefAsPush } from '../push/ref-updates.ts';
import type { Pusher } from '../push/push-setup.ts';
import { BLANK_SHA } from '../../domain/types.ts';

export async function createBranch(
  deps: Deps,
  pusher: Pusher,
  name: string | undefined,
  ref: string | undefined,
): Promise<{ branch: Branch; protection: BranchProtection }> {
  if (name === undefined || !(await isValidRefName(name))) throw apiError(400, 'Branch name is invalid');
  const repoPath = projectRepositoryPath(deps.config.dataDir, pusher);
  if (await findBranch(repoPath, name)) throw apiError(400, 'Branch already exists');
  const target = ref === undefined ? undefined : await resolveCommit(repoPath, ref);
  if (!target) throw apiError(400, 'Invalid reference name');
  const change = { before: BLANK_SHA, after: target, ref: `refs/heads/${name}` };
  await updateRefAsPush(deps, pusher, change, 'Branch already exists');
  const [branch, rules] = await Promise.all([
    findBranch(repoPath, name),
    listProtectedBranches(deps.db.kysely, pusher.project.id),
  ]);
  // Deleted again by someone else in between: what was created is what the client asked for.
  if (!branch) throw apiError(400, 'Invalid reference name');
  return { branch, protection: branchProtection(rules, name) };
}

export async function deleteBranch(deps: Deps, pusher: Pusher, name: string): Promise<void> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, pusher);
  const branch = name === '' ? undefined : await findBranch(repoPath, name);
  if (!branch) throw apiError(404, 'No such branch');
  if (name === (pusher.project.default_branch ?? 'master')) {
    throw apiError(405, 'Cannot remove HEAD branch');
  }
  const rules = await listProtectedBranches(deps.db.kysely, pusher.project.id);
  if (branchProtection(rules, name).protected) throw apiError(405, 'Protected branch cant be removed');
  const change = { before: branch.commit.id, after: BLANK_SHA, ref: `refs/heads/${name}` };
  await updateRefAsPush(
    deps,
    pusher,
    change,
    `Could not update branch ${name}. Please refresh and try again.`,
  );
}

/**
 * GitLab's DeleteMergedBranchesService: every branch merged into the default branch, except the default
 * branch and protected ones, each deleted as a push. A branch someone else moved or removed meanwhile is
 * left as it is. Answers the names deleted.
 */
export async function deleteMergedBranches(deps: Deps, pusher: Pusher): Promise<string[]> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, pusher);
  const defaultBranch = pusher.project.default_branch ?? 'master';
  const [merged, rules] = await Promise.all([
    mergedBranchNames(repoPath, `refs/heads/${defaultBranch}`),
    listProtectedBranches(deps.db.kysely, pusher.project.id),
  ]);
  const names = [...merged].filter(
    (name) => name !== defaultBranch && !branchProtection(rules, name).protected,
  );
  const deleted: string[] = [];
  for (const name of names) {
    try {
      await deleteBranch(deps, pusher, name);
      deleted.push(name);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return deleted;
}
