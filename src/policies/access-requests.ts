// Who may ask to join (GitLab 8.13's request_access ability): a signed-in caller who is not yet a member,
// where the project or group allows requests. Projects: not the namespace owner, not a member of the
// project or of its group, nor one through a share. Groups: public or internal ones (what anyone signed in
// may see), not a member.
import { AccessLevel, Visibility } from '../domain/types.ts';
import type { NamespaceRow, ProjectRecord, UserRow } from '../db/types.ts';
import type { ProjectAccess } from './access.ts';
import type { GroupAccess } from './groups.ts';

/** A member in any way (direct, through the group, through a share, as namespace owner). */
function isProjectMember(viewer: UserRow, record: ProjectRecord, access: ProjectAccess): boolean {
  if (access.projectMember || access.groupMember) return true;
  if (record.namespace.type !== 'Group' && record.namespace.owner_id === viewer.id) return true;
  return !access.admin && access.level >= AccessLevel.Guest;
}

export function canRequestProjectAccess(
  viewer: UserRow,
  record: ProjectRecord,
  access: ProjectAccess,
): boolean {
  return record.project.request_access_enabled === 1 && !isProjectMember(viewer, record, access);
}

export function canRequestGroupAccess(viewer: UserRow, group: NamespaceRow, access: GroupAccess): boolean {
  const viewable =
    group.visibility_level === Visibility.Public ||
    (group.visibility_level === Visibility.Internal && viewer.external !== 1);
  return viewable && group.request_access_enabled === 1 && access.member === null;
}
