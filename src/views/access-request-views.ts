// A project's or group's access requests, a page at a time (one count, one page query with the users).
import type { Deps } from '../deps.ts';
import {
  countAccessRequests,
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
