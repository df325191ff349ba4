// Who may do what on a group or namespace (GitLab 8.13 GroupPolicy / NamespacePolicy): read_group for
// public groups, internal ones (non-external callers), members, administrators, and anyone who can see a
// project in the group; admin_group (edit, delete, manage members) for owners and administrators;
// create_projects for masters and owners of a group, and for the owner of a personal namespace.
import { findMember } from '../db/repositories/members.ts';
import { today } from '../lib/clock.ts';
import { AccessLevel, Visibility } from '../domain/types.ts';
import { groupProjectIds } from '../db/repositories/group-projects.ts';
import type { Executor, MemberRow, NamespaceRow, UserRow } from '../db/types.ts';

export interface GroupAccess {
  /** The caller's unexpired membership, or null. */
  member: MemberRow | null;
  /** Effective level: the membership's, or Owner for administrators. */
  level: number;
  admin: boolean;
}

export async function groupAccess(
  db: Executor,
  viewer: UserRow | null,
  group: NamespaceRow,
): Promise<GroupAccess> {
  const admin = viewer?.admin === 1;
  let member: MemberRow | null = null;
  if (viewer) {
    const row = await findMember(db, 'Namespace', group.id, viewer.id);
    if (row && (row.expires_at === null || row.expires_at > today())) member = row;
  }
  const level = admin ? AccessLevel.Owner : (member?.access_level ?? AccessLevel.NoAccess);
  return { member, level, admin };
}

/** Whether some project of the group, or shared with it, is visible to the caller (GitLab let that reveal the group). */
async function hasVisibleProject(db: Executor, viewer: UserRow, group: NamespaceRow): Promise<boolean> {
  const ids = await groupProjectIds(
    db,
    { groupId: group.id, viewer, own: true, shared: true },
    { offset: 0, limit: 1 },
  );
  return ids.length > 0;
}

export async function canReadGroup(
  db: Executor,
  viewer: UserRow | null,
  group: NamespaceRow,
  access: GroupAccess,
): Promise<boolean> {
  if (group.visibility_level === Visibility.Public) return true;
  if (!viewer) return false;
  if (access.admin || access.member) return true;
  if (group.visibility_level === Visibility.Internal && viewer.external !== 1) return true;
  return hasVisibleProject(db, viewer, group);
}

export const canAdminGroup = (access: GroupAccess): boolean => access.level >= AccessLevel.Owner;

/** Today's GroupPolicy admin_label / admin_milestone: reporters of the group and up. */
export const canAdminGroupLabelsAndMilestones = (access: GroupAccess): boolean =>
  access.level >= AccessLevel.Reporter;

/** create_group: users allowed to (can_create_group) and administrators. */
export const canCreateGroup = (user: UserRow): boolean => user.can_create_group === 1 || user.admin === 1;

/** Administrators list every group and namespace; others see their own and the groups they belong to. */
export const listsEveryNamespace = (user: UserRow): boolean => user.admin === 1;

/** create_projects on a namespace: its owner (personal), masters and owners (groups), administrators. */
export async function canCreateProjectsIn(
  db: Executor,
  viewer: UserRow,
  namespace: NamespaceRow,
): Promise<boolean> {
  if (viewer.admin === 1) return true;
  if (namespace.type !== 'Group') return namespace.owner_id === viewer.id;
  const access = await groupAccess(db, viewer, namespace);
  return access.level >= AccessLevel.Master;
}
