// GitLab's participants of an issue, who count as subscribed until they say otherwise: its author and
// assignee, everyone who commented on it and everyone who awarded it an emoji. (8.13 also counted users
// mentioned in the text; mentions are not parsed here.)
import { participatedIssueIds } from '../../db/repositories/participants.ts';
import type { Executor, IssueRow } from '../../db/types.ts';

export async function isParticipant(db: Executor, issue: IssueRow, userId: number): Promise<boolean> {
  if (issue.author_id === userId || issue.assignee_id === userId) return true;
  return (await participatedIssueIds(db, userId, [issue.id])).has(issue.id);
}
