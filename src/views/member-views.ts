// The members of a project or group, a page at a time: one query for the count and one for the page's
// members with their users.
import type { Deps } from '../deps.ts';
import { countMembers, listMembers } from '../db/repositories/members.ts';
import { presentMember } from '../presenters/api-v3/member.ts';
import type { SourceType } from '../db/types.ts';

export interface MemberListSource {
  type: SourceType;
  id: number;
}

export function countMemberList(deps: Deps, source: MemberListSource, query?: string): Promise<number> {
  return countMembers(deps.db.kysely, source.type, source.id, query);
}

export async function listMembersPage(
  deps: Deps,
  source: MemberListSource,
  query: string | undefined,
  page: { offset: number; limit: number },
) {
  const rows = await listMembers(deps.db.kysely, source.type, source.id, page, query);
  return rows.map(({ user, member }) => presentMember(user, member, deps.config.externalUrl));
}
