// How the API moves a ref: exactly as a `git push` would. The push rules decide first (the decision the
// pre-receive hook makes, with the same messages); then the push is recorded as pending and committed,
// the ref moves with compare-and-swap, and push processing records events, hooks and the rest in one
// transaction. A crash after the ref moved leaves the pending push for the next start-up; a ref that
// moved meanwhile (a concurrent push or API write) makes this write lose with GitLab's error, and
// nothing of it is visible.
import type { Deps } from '../../deps.ts';
import { listProtectedBranches } from '../../db/repositories/protected-branches.ts';
import { hasBranches } from '../../git/refs.ts';
import { compareAndSwapRef } from '../../git/ref-writes.ts';
import { identPart, type Signature } from '../../git/commit-writer.ts';
import { repositoryPath } from '../../git/repository.ts';
import { isAncestor } from '../../git/revisions.ts';
import type { RefUpdate } from '../../git/protocol/pkt-line.ts';
import type { ProjectAccess } from '../../policies/access.ts';
import { pushAccessLevel } from '../../policies/git-access.ts';
import {
  canPushToBranch,
  refUpdateRefusal,
  type PushRules,
  type RepositoryFacts,
} from '../../policies/push-rules.ts';
import { apiError } from '../../errors.ts';
import { processPush, recordPendingPush, type ProcessedPush } from './push.ts';
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

export function pusherRepoPath(deps: Deps, pusher: Pusher): string {
  return repositoryPath(deps.config.dataDir, pusher.namespace.path, pusher.project.path);
}

async function pushRules(deps: Deps, pusher: Pusher): Promise<PushRules> {
  const rules = await listProtectedBranches(deps.db.kysely, pusher.project.id);
  return {
    accessLevel: pushAccessLevel(pusher.access),
    archived: pusher.project.archived === 1,
    protectedBranches: rules.map((rule) => ({
      name: rule.name,
      developersCanPush: rule.developers_can_push === 1,
    })),
  };
}

function repositoryFacts(repoPath: string): RepositoryFacts {
  return {
    repositoryIsEmpty: async () => !(await hasBranches(repoPath)),
    isAncestor: (ancestor, descendant) => isAncestor(repoPath, ancestor, descendant),
  };
}

/** can_push_to_branch?: whether the pusher may put commits on the branch at all. */
export async function mayPushToBranch(deps: Deps, pusher: Pusher, branch: string): Promise<boolean> {
  return canPushToBranch(
    await pushRules(deps, pusher),
    branch,
    repositoryFacts(pusherRepoPath(deps, pusher)),
  );
}

/**
 * Moves one ref as a push by the pusher. Refusals by the push rules are 400s with the rule's message;
 * when the ref no longer holds `change.before`, the write is lost: 400 with `lostMessage`.
 */
export async function updateRefAsPush(
  deps: Deps,
  pusher: Pusher,
  change: RefUpdate,
  lostMessage: string,
): Promise<ProcessedPush | null> {
  const repoPath = pusherRepoPath(deps, pusher);
  const refusal = await refUpdateRefusal(change, await pushRules(deps, pusher), repositoryFacts(repoPath));
  if (refusal) throw apiError(400, refusal);
  const pushId = await recordPendingPush(deps, pusher.project.id, pusher.user.id, [change]);
  const moved = await compareAndSwapRef(repoPath, change.ref, change.before, change.after);
  let processed: ProcessedPush | null = null;
  try {
    // Also when the ref did not move: processing finds nothing applied and closes the pending push.
    processed = await processPush(deps, pushId);
  } catch (error) {
    // The push stays pending; the next start-up processes it.
    deps.log.error({ err: error, pushId }, 'push processing failed');
  }
  if (!moved) throw apiError(400, lostMessage);
  return processed;
}
