// What the push rules need to decide a push (the pusher's level, archived, protected branches), for git
// over HTTP and SSH (gathered before receive-pack starts) and for the writes of the API and the pages.
// Nothing here moves a ref, so the MR services may ask it without depending on push processing.
import type { Deps } from '../../deps.ts';
import { listProtectedBranches } from '../../db/repositories/protected-branches.ts';
import { identPart, type Signature } from '../../git/commit-writer.ts';
import { hasBranches } from '../../git/refs.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { isAncestor } from '../../git/revisions.ts';
import { pushAccessLevel } from '../../policies/git-access.ts';
import type { ProjectAccess } from '../../policies/access.ts';
import {
  canMergeToBranch,
  canPushToBranch,
  pushRulesFrom,
  type PushRules,
  type RepositoryFacts,
} from '../../policies/push-rules.ts';
import type { ProjectRecord, UserRow } from '../../db/types.ts';

/** Who writes (the user, with their access), and to which project. */
export interface Pusher extends ProjectRecord {
  access: ProjectAccess;
  user: UserRow;
}

/** The caller as committer or tagger (its username where its name is nothing git could store). */
export function userSignature(pusher: Pusher): Signature {
  return { name: identPart(pusher.user.name) || pusher.user.username, email: identPart(pusher.user.email) };
}

export async function pushRulesFor(
  deps: Deps,
  record: ProjectRecord,
  access: ProjectAccess,
): Promise<PushRules> {
  const rules = await listProtectedBranches(deps.db.kysely, record.project.id);
  return pushRulesFrom(pushAccessLevel(access), record.project.archived === 1, rules);
}

export function repositoryFacts(repoPath: string): RepositoryFacts {
  return {
    repositoryIsEmpty: async () => !(await hasBranches(repoPath)),
    isAncestor: (ancestor, descendant) => isAncestor(repoPath, ancestor, descendant),
  };
}

/**
 * can_be_merged_by?: 8.13 lets whoever may push to the target branch merge into it, and also whoever
 * may merge there (a developer on a protected branch with `developers_can_merge`).
 */
export async function mayMergeIntoBranch(deps: Deps, pusher: Pusher, branch: string): Promise<boolean> {
  const rules = await pushRulesFor(deps, pusher, pusher.access);
  if (canMergeToBranch(rules, branch)) return true;
  return canPushToBranch(rules, branch, repositoryFacts(projectRepositoryPath(deps.config.dataDir, pusher)));
}

/** can_push_to_branch?: whether the pusher may put commits on the branch at all. */
export async function mayPushToBranch(deps: Deps, pusher: Pusher, branch: string): Promise<boolean> {
  return canPushToBranch(
    await pushRulesFor(deps, pusher, pusher.access),
    branch,
    repositoryFacts(projectRepositoryPath(deps.config.dataDir, pusher)),
  );
}
