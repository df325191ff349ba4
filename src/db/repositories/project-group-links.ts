// Shares of a project with a group (project_group_links, unique per project and group).
import type { Insertable } from 'kysely';
import type { ProjectGroupLinksTable } from '../schema.ts';
import type { Executor } from '../types.ts';

export async function isProjectSharedWith(
  db: Executor,
  projectId: number,
  groupId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('project_group_links')
    .select('id')
    .where('project_id', '=', projectId)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return row !== undefined;
}

export function insertProjectGroupLink(db: Executor, values: Insertable<ProjectGroupLinksTable>) {
  return db.insertInto('project_group_links').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Removes the share; whether there was one. */
export async function deleteProjectGroupLink(db: Executor, projectId: number, groupId: number) {
  const result = await db
    .deleteFrom('project_group_links')
    .where('project_id', '=', projectId)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
