// API v4's Member entity: UserBasic merged with the membership's access level, creation and expiry.
import { presentUserBasic } from './user.ts';
import type { MemberRow, UserRow } from '../../db/types.ts';

export function presentMember(user: UserRow, member: MemberRow, baseUrl: string) {
  return Object.assign(presentUserBasic(user, baseUrl), {
    access_level: member.access_level,
    created_at: member.created_at,
    expires_at: member.expires_at,
  });
}
