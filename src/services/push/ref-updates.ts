// How the API moves a ref: exactly as a `git push` would. The push rules decide first (the decision the
// pre-receive hook makes, with the same messages); then the push is recorded as pending and committed,
// the ref moves with compare-and-swap, and push processing records events, hooks and the rest in one
// transaction. A crash after the ref moved leaves the pending push for the next start-up; a ref that
// moved meanwhile (a concurrent push or API write) makes this write lose with GitLab's error, and
// nothing of it is visible.
import type { Deps } from '../../deps.ts';
import { compareAndSwapRef } from '../../git/ref-writes.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import type { RefUpdate } from '../../git/protocol/pkt-line.ts';
import { refUpdateRefusal } from '../../policies/push-rules.ts';
import { apiError } from '../../errors.ts';
import { processPush, recordPendingPush, type ProcessedPush } from './push.ts';
import { pushRulesFor, repositoryFacts, type Pusher } from './push-setup.ts';

/**
 * Moves one ref as a push by the pusher. Refusals by the push rules are 400s with the rule's message;
 * when the ref no longer holds `change.before`, the write is lost: 400 with `lostMessage`. `merging`: the
 * update lands a merge, which the merge rule of a protected branch allows (developers_can_merge).
 */
export async function updateRefAsPush(
  deps: Deps,
  pusher: Pusher,
  change: RefUpdate,
  lostMessage: string,
  merging = false,
  /** GitLab's `ci.skip` push option: the push makes no pipelines. */
  ciSkip = false,
): Promise<ProcessedPush | null> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, pusher);
  const rules = await pushRulesFor(deps, pusher, pusher.access);
  const refusal = await refUpdateRefusal(change, rules, repositoryFacts(repoPath), merging);
  if (refusal) throw apiError(400, refusal);
  const pushId = await recordPendingPush(deps, pusher.project.id, pusher.user.id, [change], ciSkip);
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
