// The participants of one issue or merge request as v4 lists them (GET …/participants): its author, its
// assignee, then everyone who commented on it or awarded it an emoji, each once, in that order; users who
// can no longer sign in (blocked) are left out, as GitLab keeps only users who may still read it.
import type { Deps } from '../deps.ts';
import { participantIdsOf } from '../db/repositories/participants.ts';
import { usersByIds } from '../db/repositories/users.ts';
import type { UserRow } from '../db/types.ts';

export interface ParticipantsTarget {
  type: 'Issue' | 'MergeRequest';
  id: number;
  author_id: number | null;
  assignee_id: number | null;
}

export async function participantsOf(deps: Deps, target: ParticipantsTarget): Promise<UserRow[]> {
  const db = deps.db.kysely;
  const others = await participantIdsOf(db, target.type, target.id);
  const ids = [
    ...new Set([target.author_id, target.assignee_id, ...others].filter((id): id is number => id !== null)),
  ];
  const users = await usersByIds(db, ids);
  return ids.flatMap((id) => {
    const user = users.get(id);
    return user && user.state === 'active' ? [user] : [];
  });
}
