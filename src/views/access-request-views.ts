// A project's or group's access requests, a page at a time (one count, one page query with the users),
// and one person's own request (the page's Request or Withdraw button).
import type { Deps } from '../deps.ts';
import {
  countAccessRequests,
  findAccessRequest,
  listAccessRequests,
  type AccessRequestHolder,
  type AccessRequestWithUser,
} from '../db/repositories/access-requests.ts';

export function countAccessRequestList(deps: Deps, holder: AccessRequestHolder): Promise<number> {
  return countAccessRequests(deps.db.kysely, holder);
}

export function listAccessRequestsPage(
  deps: Deps,
  holder: AccessRequestHolder,
  page: { offset: number; limit: number },
): Promise<AccessRequestWithUser[]> {
  return listAccessRequests(deps.db.kysely, holder, page);
}

/** Whether `userId` has asked to join the holder (one indexed lookup). */
export async function hasAccessRequest(
  deps: Deps,
  holder: AccessRequestHolder,
  userId: number,
): Promise<boolean> {
  return (await findAccessRequest(deps.db.kysely, holder, userId)) !== undefined;
}
