// Member (UserBasic + access_level, expires_at), ProjectGroupLink and ForkedProjectLink.
import { presentUserBasic } from './user.ts';
import type { UserRow } from '../../db/types.ts';

export interface MembershipFields {
  access_level: number;
  expires_at: string | null;
}

export function presentMember(user: UserRow, member: MembershipFields, baseUrl: string) {
  return Object.assign(presentUserBasic(user, baseUrl), {
    access_level: member.access_level,
    expires_at: member.expires_at,
  });
}

export interface ProjectGroupLinkFields {
  id: number;
  project_id: number;
  group_id: number;
  group_access: number;
  expires_at: string | null;
}

export function presentProjectGroupLink(link: ProjectGroupLinkFields) {
  return {
    id: link.id,
    project_id: link.project_id,
    group_id: link.group_id,
    group_access: link.group_access,
    expires_at: link.expires_at,
  };
}

export interface ForkedProjectLinkFields {
  id: number;
  forked_to_project_id: number;
  forked_from_project_id: number;
  created_at: string;
  updated_at: string;
}

/** The admin fork-link routes answered with the raw forked_project_links row. */
export function presentForkedProjectLink(link: ForkedProjectLinkFields) {
  return {
    id: link.id,
    forked_to_project_id: link.forked_to_project_id,
    forked_from_project_id: link.forked_from_project_id,
    created_at: link.created_at,
    updated_at: link.updated_at,
  };
}

/** GitLab 8.13 kept project member deletion idempotent: removing a non-member answers this body. */
export function presentAccessRevoked(userId: unknown) {
  return { message: 'Access revoked', id: userId };
}
