// GitLab's participants of an issue or merge request, who count as subscribed until they say otherwise:
// its author and assignee, everyone who commented on it and everyone who awarded it an emoji. (8.13 also
// counted users mentioned in the text; mentions are not parsed here.)
import { participatedIds } from '../../db/repositories/participants.ts';
import type { Executor } from '../../db/types.ts';

export interface Participable {
  type: 'Issue' | 'MergeRequest';
  id: number;
  author_id: number | null;
  assignee_id: number | null;
}

export async function isParticipant(db: Executor, issuable: Participable, userId: number): Promise<boolean> {
  if (issuable.author_id === userId || issuable.assignee_id === userId) return true;
  return (await participatedIds(db, issuable.type, userId, [issuable.id])).has(issuable.id);
}
