// GitLab 8.13's GitPushService#process_commit_messages, its other half: every pushed commit whose message
// references issues or merge requests cross-references them (`Mentioned in commit <sha>` on each), as the
// commit's author when that is a user (else the pusher), reading what that author may see; the issues the
// same commit closed are left out (8.13 passed them as `without`). In the push's transaction, over the
// commits its push payloads list (the newest 20 of each branch, as hooks get them).
import type { Deps } from '../../deps.ts';
import { findUserByEmail } from '../../db/repositories/users.ts';
import { markdownReferences } from '../../lib/gfm-references.ts';
import { recordMentions } from '../issues/mentions.ts';
import type { PushPayload } from '../../presenters/hooks/push-payload.ts';
import type { Executor, ProjectRecord, UserRow } from '../../db/types.ts';

export async function crossReferenceCommits(
  trx: Executor,
  deps: Deps,
  record: ProjectRecord,
  pusher: UserRow,
  payloads: PushPayload[],
  closed: Map<string, Set<number>>,
  at: string,
): Promise<void> {
  const seen = new Set<string>();
  for (const payload of payloads) {
    if (payload.object_kind !== 'push') continue;
    for (const commit of payload.commits) {
      if (seen.has(commit.id)) continue;
      seen.add(commit.id);
      const references = markdownReferences(commit.message);
      if (!references.some((reference) => reference.kind === 'issue' || reference.kind === 'merge_request'))
        continue;
      const author = (await findUserByEmail(trx, commit.author.email)) ?? pusher;
      await recordMentions(trx, deps, {
        author,
        record,
        mentioner: { kind: 'commit', sha: commit.id },
        texts: [commit.message],
        crossReference: true,
        without: closed.get(commit.id),
        at,
      });
    }
  }
}
