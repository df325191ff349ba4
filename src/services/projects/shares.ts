// Sharing a project with a group. The group's members then reach the project at min(their group level,
// group_access) until expires_at (the access policy reads project_group_links). Refusals come in the
// order GitLab's ProjectGroupLink model validated them.
import type { Deps } from '../../deps.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { now } from '../../lib/clock.ts';
import { apiError, conflict, notFound } from '../../errors.ts';
import {
  deleteProjectGroupLink,
  insertProjectGroupLink,
  isProjectSharedWith,
} from '../../db/repositories/project-group-links.ts';
import type { NamespaceRow, ProjectRecord } from '../../db/types.ts';

export interface ShareInput {
  groupAccess: number;
  expiresAt: string | null;
}

const SHARE_LEVELS = new Set([10, 20, 30, 40]);
const ALREADY_SHARED = 'Group already shared with this group';

export async function shareProject(
  deps: Deps,
  record: ProjectRecord,
  group: NamespaceRow,
  input: ShareInput,
) {
  const db = deps.db.kysely;
  if (record.namespace.share_with_group_lock === 1) {
    throw apiError(400, 'The project sharing with group is disabled');
  }
  if (await isProjectSharedWith(db, record.project.id, group.id)) throw conflict(ALREADY_SHARED);
  if (!SHARE_LEVELS.has(input.groupAccess)) throw conflict('Group access is not included in the list');
  if (record.namespace.id === group.id) throw conflict('Project cannot be shared with the project it is in.');
  const at = now();
  try {
    return await insertProjectGroupLink(db, {
      project_id: record.project.id,
      group_id: group.id,
      group_access: input.groupAccess,
      expires_at: input.expiresAt,
      created_at: at,
      updated_at: at,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(ALREADY_SHARED);
    throw error;
  }
}

/** Stops sharing the project with the group; 404 when it was not shared with it. */
export async function unshareProject(deps: Deps, record: ProjectRecord, groupId: number): Promise<void> {
  if (!(await deleteProjectGroupLink(deps.db.kysely, record.project.id, groupId))) throw notFound();
}
