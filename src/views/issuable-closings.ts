// When and by whom issues were closed and merge requests closed or merged (v4's closed_at, closed_by,
// merged_at, merged_by): the newest closing event of each on a page, and its authors, in two statements.
// Only a closed (or merged) issuable has one; a reopened one shows none, as GitLab clears it on reopen.
import type { Deps } from '../deps.ts';
import { latestTargetEvents } from '../db/repositories/events.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { EventAction, ISSUE, MERGE_REQUEST } from '../domain/types.ts';
import type { IssueRow, MergeRequestRow, UserRow } from '../db/types.ts';

export interface Closing {
  at: string;
  by: UserRow | null;
}

export interface MergeRequestClosings {
  closed: Map<number, Closing>;
  merged: Map<number, Closing>;
}

async function withAuthors(
  deps: Deps,
  events: Map<number, { authorId: number; createdAt: string }>[],
): Promise<Map<number, Closing>[]> {
  const users = await usersByIds(
    deps.db.kysely,
    events.flatMap((map) => [...map.values()].map((event) => event.authorId)),
  );
  return events.map(
    (map) =>
      new Map(
        [...map].map(([id, event]) => [id, { at: event.createdAt, by: users.get(event.authorId) ?? null }]),
      ),
  );
}

/** The closing of each closed issue among these. */
export async function issueClosings(deps: Deps, issues: IssueRow[]): Promise<Map<number, Closing>> {
  const closed = issues.filter((issue) => issue.state === 'closed').map((issue) => issue.id);
  const events = await latestTargetEvents(deps.db.kysely, ISSUE, closed, EventAction.Closed);
  return (await withAuthors(deps, [events]))[0]!;
}

/** The closing of each closed MR and the merge of each merged one among these. */
export async function mergeRequestClosings(
  deps: Deps,
  mrs: MergeRequestRow[],
): Promise<MergeRequestClosings> {
  const ids = (state: string) => mrs.filter((mr) => mr.state === state).map((mr) => mr.id);
  const db = deps.db.kysely;
  const [closedEvents, mergedEvents] = await Promise.all([
    latestTargetEvents(db, MERGE_REQUEST, ids('closed'), EventAction.Closed),
    latestTargetEvents(db, MERGE_REQUEST, ids('merged'), EventAction.Merged),
  ]);
  const [closed, merged] = await withAuthors(deps, [closedEvents, mergedEvents]);
  return { closed: closed!, merged: merged! };
}
