// Who may do what on a project. A caller's access is
// the highest of: administrator, owner of the personal namespace, group membership of the project's
// group, direct project membership, and memberships of groups the project is shared with (capped at the
// share's group_access; expired shares and memberships count for nothing). Visibility decides who may
// read without membership; external users see internal projects as private.
import { accessRows } from '../db/repositories/members.ts';
import { AccessLevel, Visibility } from '../domain/types.ts';
import type { AccessRow, Executor, ProjectRecord, UserRow } from '../db/types.ts';

export interface MembershipAccess {
  access_level: number;
  notification_level: number | null;
}

export interface ProjectAccess {
  /** Effective level 0–50; 50 = owner abilities (administrators, namespace owners, group owners). */
  level: number;
  /** The caller's own project membership (for `permissions.project_access`). */
  projectMember: MembershipAccess | null;
  /** The caller's membership of the project's group (for `permissions.group_access`). */
  groupMember: MembershipAccess | null;
  admin: boolean;
  canRead: boolean;
}

function isGroup(record: ProjectRecord): boolean {
  return record.namespace.type === 'Group';
}

/** The caller's access from the access rows the repositories found for this project. */
export function projectAccessFromRows(
  viewer: UserRow | null,
  record: ProjectRecord,
  rows: AccessRow[],
): ProjectAccess {
  const admin = viewer?.admin === 1;
  let projectMember: MembershipAccess | null = null;
  let groupMember: MembershipAccess | null = null;
  let level: number = AccessLevel.NoAccess;
  for (const row of rows) {
    if (row.kind === 'Project' && row.source_id === record.project.id) {
      projectMember = { access_level: row.access_level, notification_level: row.notification_level };
      level = Math.max(level, row.access_level);
    } else if (row.kind === 'Namespace' && isGroup(record) && row.source_id === record.namespace.id) {
      groupMember = { access_level: row.access_level, notification_level: row.notification_level };
      level = Math.max(level, row.access_level);
    } else if (row.kind === 'Share' && row.source_id === record.project.id) {
      level = Math.max(level, row.access_level);
    }
  }
  const namespaceOwner = viewer !== null && !isGroup(record) && record.namespace.owner_id === viewer.id;
  if (admin || namespaceOwner) level = AccessLevel.Owner;
  return { level, projectMember, groupMember, admin, canRead: readable(viewer, record, level) };
}

function readable(viewer: UserRow | null, record: ProjectRecord, level: number): boolean {
  if (level >= AccessLevel.Guest) return true;
  const visibility = record.project.visibility_level;
  if (visibility === Visibility.Public) return true;
  if (visibility === Visibility.Internal) return viewer !== null && viewer.external !== 1;
  return false;
}

const NOBODY = (viewer: UserRow | null, record: ProjectRecord): ProjectAccess =>
  projectAccessFromRows(viewer, record, []);

/** The caller's access to one project: one indexed query (none without a caller). */
export async function projectAccess(
  db: Executor,
  viewer: UserRow | null,
  record: ProjectRecord,
): Promise<ProjectAccess> {
  if (!viewer) return NOBODY(viewer, record);
  const rows = await accessRows(
    db,
    viewer.id,
    [record.project.id],
    isGroup(record) ? [record.namespace.id] : [],
  );
  return projectAccessFromRows(viewer, record, rows);
}

/** The caller's access to a page of projects: still one query. Keyed by project id. */
export async function projectAccessMany(
  db: Executor,
  viewer: UserRow | null,
  records: ProjectRecord[],
): Promise<Map<number, ProjectAccess>> {
  const result = new Map<number, ProjectAccess>();
  let rows: AccessRow[] = [];
  if (viewer && records.length > 0) {
    const groupIds = [...new Set(records.filter(isGroup).map((r) => r.namespace.id))];
    rows = await accessRows(
      db,
      viewer.id,
      records.map((r) => r.project.id),
      groupIds,
    );
  }
  for (const record of records) result.set(record.project.id, projectAccessFromRows(viewer, record, rows));
  return result;
}

/** admin_project: edit, hooks, branch protection, share, runners_token (master+). */
export const canAdminProject = (access: ProjectAccess): boolean => access.level >= AccessLevel.Master;
/** rename, visibility change, archive, remove: owners (administrators, namespace owners, group owners). */
export const isProjectOwner = (access: ProjectAccess): boolean => access.level >= AccessLevel.Owner;
/** fork_project: reporters and up, and anyone who may read a public or internal project. */
export function canForkProject(viewer: UserRow, source: ProjectRecord, access: ProjectAccess): boolean {
  if (!access.canRead) return false;
  if (access.level >= AccessLevel.Reporter) return true;
  const visibility = source.project.visibility_level;
  return visibility === Visibility.Public || (visibility === Visibility.Internal && viewer.external !== 1);
}
