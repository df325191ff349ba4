// Project and group milestones: lists walk (project_id|group_id, state, id) or the iid index, newest
// first. A project's issues and merge requests may take its own milestones and its group's.
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Database } from '../schema.ts';
import type { Executor, MilestoneRow } from '../types.ts';

/**
 * `alias.project_id` is one of these projects, or `alias.group_id` the group one of them belongs to (a
 * personal namespace has no group rows, so no type check is needed).
 */
export function inProjectsOrTheirGroups(alias: string, projectIds: number[]) {
  const ids = sql.join(projectIds);
  return sql<boolean>`(${sql.ref(`${alias}.project_id`)} in (${ids}) or ${sql.ref(`${alias}.group_id`)} in (select namespace_id from projects where id in (${ids})))`;
}

export interface MilestoneListFilter {
  /** A project's milestones, or (with groupId) a group's. */
  projectId?: number;
  groupId?: number;
  /** The milestones of any of these projects (a search across projects); wins over projectId. */
  projectIds?: number[];
  state?: 'active' | 'closed';
  iid?: number;
  /** v4's `iids[]`: any of them. */
  iids?: number[];
  /** v4's `title`: exactly this title. */
  title?: string;
  /** v4's `search`: in the title or description, case-insensitively. */
  search?: string;
}

function filtered(db: Executor, filter: MilestoneListFilter) {
  let query =
    filter.projectIds !== undefined
      ? db
          .selectFrom('milestones')
          .where('project_id', 'in', filter.projectIds.length > 0 ? filter.projectIds : [-1])
      : filter.groupId !== undefined
        ? db.selectFrom('milestones').where('group_id', '=', filter.groupId)
        : db.selectFrom('milestones').where('project_id', '=', filter.projectId ?? -1);
  if (filter.state) query = query.where('state', '=', filter.state);
  if (filter.iid !== undefined) query = query.where('iid', '=', filter.iid);
  if (filter.iids !== undefined)
    query = query.where('iid', 'in', filter.iids.length > 0 ? filter.iids : [-1]);
  if (filter.title !== undefined) query = query.where('title', '=', filter.title);
  if (filter.search !== undefined) {
    const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    query = query.where((eb) => eb.or([like('title'), like('description')]));
  }
  return query;
}

/** Deletes a milestone; its issues and merge requests lose it (the foreign keys set null). */
export async function deleteMilestone(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('milestones').where('id', '=', id).execute();
}

export async function countMilestones(db: Executor, filter: MilestoneListFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listMilestones(
  db: Executor,
  filter: MilestoneListFilter,
  limit: number,
  offset: number,
): Promise<MilestoneRow[]> {
  return filtered(db, filter).selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

/** A milestone of the project or of its group: what its issues and merge requests may take. */
export function findProjectMilestone(
  db: Executor,
  projectId: number,
  id: number,
): Promise<MilestoneRow | undefined> {
  return db
    .selectFrom('milestones')
    .selectAll()
    .where('id', '=', id)
    .where(inProjectsOrTheirGroups('milestones', [projectId]))
    .executeTakeFirst();
}

/** The project's own milestone (the project routes read, edit and delete only these). */
export function findOwnProjectMilestone(
  db: Executor,
  projectId: number,
  id: number,
): Promise<MilestoneRow | undefined> {
  return db
    .selectFrom('milestones')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findGroupMilestone(
  db: Executor,
  groupId: number,
  id: number,
): Promise<MilestoneRow | undefined> {
  return db
    .selectFrom('milestones')
    .selectAll()
    .where('group_id', '=', groupId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findGroupMilestoneByTitle(
  db: Executor,
  groupId: number,
  title: string,
): Promise<MilestoneRow | undefined> {
  return db
    .selectFrom('milestones')
    .selectAll()
    .where('group_id', '=', groupId)
    .where('title', '=', title)
    .executeTakeFirst();
}

/** The next iid of a group's milestones; the unique (group_id, iid) index guards two at once. */
export async function nextGroupMilestoneIid(db: Executor, groupId: number): Promise<number> {
  const row = await db
    .selectFrom('milestones')
    .select((eb) => eb.fn.max('iid').as('iid'))
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return Number(row?.iid ?? 0) + 1;
}

export function findMilestoneByTitle(
  db: Executor,
  projectId: number,
  title: string,
): Promise<MilestoneRow | undefined> {
  return db
    .selectFrom('milestones')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('title', '=', title)
    .executeTakeFirst();
}

export async function milestonesByIds(db: Executor, ids: number[]): Promise<Map<number, MilestoneRow>> {
  const result = new Map<number, MilestoneRow>();
  if (ids.length === 0) return result;
  for (const row of await db
    .selectFrom('milestones')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute())
    result.set(row.id, row);
  return result;
}

export function insertMilestone(
  db: Executor,
  values: Insertable<Database['milestones']>,
): Promise<MilestoneRow> {
  return db.insertInto('milestones').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateMilestone(
  db: Executor,
  id: number,
  changes: Updateable<Database['milestones']>,
): Promise<MilestoneRow | undefined> {
  return db.updateTable('milestones').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}
