// Project milestones: lists walk (project_id, state, id) or the project's iid index, newest first.
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Database } from '../schema.ts';
import type { Executor, MilestoneRow } from '../types.ts';

export interface MilestoneListFilter {
  projectId: number;
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
  let query = db.selectFrom('milestones').where('project_id', '=', filter.projectId);
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

export function findProjectMilestone(
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
