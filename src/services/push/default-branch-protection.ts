// GitLab's default `default_branch_protection` (2, "fully protected"): when a push creates the project's
// default branch (its first push, or the branch pushed again after a deletion), that branch becomes
// protected, masters only for pushes and merges, unless a rule already covers it. Part of push
// processing, so `git push` and the API's writes alike get it, in the transaction that records the push.
import type { RefUpdate } from '../../git/protocol/pkt-line.ts';
import {
  insertProtectedBranchIfMissing,
  listProtectedBranches,
} from '../../db/repositories/protected-branches.ts';
import { branchProtection } from '../../policies/protected-branches.ts';
import type { Executor } from '../../db/types.ts';
import { BLANK_SHA } from '../../domain/types.ts';

/** Whether the push created the branch named `defaultBranch`. */
export function createsDefaultBranch(applied: RefUpdate[], defaultBranch: string | null): boolean {
  return (
    defaultBranch !== null &&
    applied.some(
      (change) =>
        change.ref === `refs/heads/${defaultBranch}` &&
        change.before === BLANK_SHA &&
        change.after !== BLANK_SHA,
    )
  );
}

export async function protectCreatedDefaultBranch(
  trx: Executor,
  projectId: number,
  defaultBranch: string | null,
  applied: RefUpdate[],
  at: string,
): Promise<void> {
  if (!defaultBranch || !createsDefaultBranch(applied, defaultBranch)) return;
  const rules = await listProtectedBranches(trx, projectId);
  if (branchProtection(rules, defaultBranch).protected) return;
  await insertProtectedBranchIfMissing(trx, {
    project_id: projectId,
    name: defaultBranch,
    developers_can_push: 0,
    developers_can_merge: 0,
    created_at: at,
    updated_at: at,
  });
}
