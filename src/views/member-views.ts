// The members of a project or group, a page at a time: one query for the count and one for the page's
// members with their users. `/members/all` adds what a project inherits from its group.
import type { Deps } from '../deps.ts';
import { countMembers, listMembers } from '../db/repositories/members.ts';
import type { MemberWithUser, SourceType } from '../db/types.ts';

export interface MemberListSource {
  type: SourceType;
  id: number;
}

export function countMemberList(deps: Deps, source: MemberListSource, query?: string): Promise<number> {
  return countMembers(deps.db.kysely, source.type, source.id, query);
}

export function listMembersPage(
  deps: Deps,
  source: MemberListSource,
  query: string | undefined,
  page: { offset: number; limit: number },
): Promise<MemberWithUser[]> {
  return listMembers(deps.db.kysely, source.type, source.id, page, query);
}

/** More memberships than a source's inherited list reads; beyond it the list is cut (a fixed cost). */
const INHERITED_MAXIMUM = 10_000;

/**
 * The members of the sources together (a project, then the group it lives in), one entry per user: the
 * highest access level wins, the nearer source on a tie (GitLab's /members/all). In user id order.
 */
export async function listInheritedMembers(
  deps: Deps,
  sources: MemberListSource[],
  query: string | undefined,
): Promise<MemberWithUser[]> {
  const lists = await Promise.all(
    sources.map((source) => listMembersPage(deps, source, query, { offset: 0, limit: INHERITED_MAXIMUM })),
  );
  const byUser = new Map<number, MemberWithUser>();
  for (const list of lists) {
    for (const entry of list) {
      const known = byUser.get(entry.user.id);
      if (!known || entry.member.access_level > known.member.access_level) byUser.set(entry.user.id, entry);
    }
  }
  return [...byUser.values()].sort((a, b) => a.user.id - b.user.id);
}
