// Who may do what on a group or namespace (GitLab 8.13 GroupPolicy / NamespacePolicy): read_group for
// public groups, internal ones (non-external callers), members, administrators, and anyone who can see a
// project in the group; admin_group (edit, delete, manage members) for owners and administrators;
// create_projects for masters and owners of a group, and for the owner of a personal namespace.
import { sql } from 'kysely';
import type { Executor, UserRow } from '../db/repositories/users.ts';
import type { NamespaceRow } from '../db/repositories/namespaces.ts';
import { findMember, today, type MemberRow } from '../db/repositories/members.ts';
import { AccessLevel, Visibility } from '../domain/types.ts';

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

/** Whether some project of the group is visible to the caller (GitLab let that reveal the group). */
async function hasVisibleProject(db: Executor, viewer: UserRow, group: NamespaceRow): Promise<boolean> {
  const minimum = viewer.external === 1 ? Visibility.Public : Visibility.Internal;
  const day = today();
  const row = await db
    .selectFrom('projects as p')
    .select('p.id')
    .where('p.namespace_id', '=', group.id)
    .where((eb) =>
      eb.or([
        eb('p.visibility_level', '>=', minimum),
        eb.exists(
          eb
            .selectFrom('members as m')
            .select('m.id')
            .where('m.source_type', '=', 'Project')
            .whereRef('m.source_id', '=', 'p.id')
            .where('m.user_id', '=', viewer.id)
            .where(sql<boolean>`(m.expires_at is null or m.expires_at > ${day})`),
        ),
        eb.exists(
          eb
            .selectFrom('project_group_links as l')
            .innerJoin('members as m', (join) =>
              join.onRef('m.source_id', '=', 'l.group_id').on('m.source_type', '=', 'Namespace'),
            )
            .select('l.id')
            .whereRef('l.project_id', '=', 'p.id')
            .where('m.user_id', '=', viewer.id)
            .where(sql<boolean>`(l.expires_at is null or l.expires_at > ${day})`)
            .where(sql<boolean>`(m.expires_at is null or m.expires_at > ${day})`),
        ),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
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
