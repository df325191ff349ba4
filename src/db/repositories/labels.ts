// Project and group labels, looked up by (project_id|group_id, title) on their unique indexes, and their
// issue and MR counts. A project's issues and merge requests may carry its own labels and its group's.
import type { Executor, LabelRow } from '../types.ts';
import { inProjectsOrTheirGroups } from './milestones.ts';
import type { Database } from '../schema.ts';
import type { Insertable, Updateable } from 'kysely';

export function listProjectLabels(
  db: Executor,
  projectId: number,
  withGroupLabels = false,
): Promise<LabelRow[]> {
  const query = db.selectFrom('labels').selectAll();
  return (
    withGroupLabels
      ? query.where(inProjectsOrTheirGroups('labels', [projectId]))
      : query.where('project_id', '=', projectId)
  )
    .orderBy('title')
    .orderBy('id')
    .execute();
}

export function listGroupLabels(db: Executor, groupId: number): Promise<LabelRow[]> {
  return db.selectFrom('labels').selectAll().where('group_id', '=', groupId).orderBy('title').execute();
}

export function findGroupLabelByTitle(
  db: Executor,
  groupId: number,
  title: string,
): Promise<LabelRow | undefined> {
  return db
    .selectFrom('labels')
    .selectAll()
    .where('group_id', '=', groupId)
    .where('title', '=', title)
    .executeTakeFirst();
}

export function findGroupLabelById(db: Executor, groupId: number, id: number): Promise<LabelRow | undefined> {
  return db
    .selectFrom('labels')
    .selectAll()
    .where('group_id', '=', groupId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A label an issuable of the project may carry, by title: the project's own first, else its group's. */
export async function findAvailableLabelByTitle(
  db: Executor,
  projectId: number,
  title: string,
): Promise<LabelRow | undefined> {
  const rows = await db
    .selectFrom('labels')
    .selectAll()
    .where('title', '=', title)
    .where(inProjectsOrTheirGroups('labels', [projectId]))
    .execute();
  return rows.find((row) => row.project_id !== null) ?? rows[0];
}

/** A label of the project or its group by id. */
export function findAvailableLabelById(
  db: Executor,
  projectId: number,
  id: number,
): Promise<LabelRow | undefined> {
  return db
    .selectFrom('labels')
    .selectAll()
    .where('id', '=', id)
    .where(inProjectsOrTheirGroups('labels', [projectId]))
    .executeTakeFirst();
}

export function findLabelByTitle(
  db: Executor,
  projectId: number,
  title: string,
): Promise<LabelRow | undefined> {
  return db
    .selectFrom('labels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('title', '=', title)
    .executeTakeFirst();
}

export function findLabelById(db: Executor, projectId: number, id: number): Promise<LabelRow | undefined> {
  return db
    .selectFrom('labels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Labels the project's issuables may carry by title, one per title (the project's own before its group's). */
export async function findLabelsByTitles(
  db: Executor,
  projectId: number,
  titles: string[],
): Promise<LabelRow[]> {
  if (titles.length === 0) return [];
  const rows = await db
    .selectFrom('labels')
    .selectAll()
    .where(inProjectsOrTheirGroups('labels', [projectId]))
    .where('title', 'in', titles)
    .execute();
  const byTitle = new Map<string, LabelRow>();
  for (const row of rows) {
    const known = byTitle.get(row.title);
    if (!known || (known.project_id === null && row.project_id !== null)) byTitle.set(row.title, row);
  }
  return [...byTitle.values()];
}

/** Inserts a label unless one of that title exists (a concurrent create wins quietly); the row either way. */
export async function insertLabelIfMissing(
  db: Executor,
  values: Insertable<Database['labels']>,
): Promise<LabelRow> {
  await db
    .insertInto('labels')
    .values(values)
    .onConflict((oc) => oc.columns(['project_id', 'title']).doNothing())
    .execute();
  return (await findLabelByTitle(db, values.project_id!, values.title))!;
}

export function insertLabel(db: Executor, values: Insertable<Database['labels']>): Promise<LabelRow> {
  return db.insertInto('labels').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateLabel(
  db: Executor,
  id: number,
  changes: Updateable<Database['labels']>,
): Promise<LabelRow | undefined> {
  return db.updateTable('labels').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteLabel(db: Executor, id: number): Promise<void> {
  await db
    .deleteFrom('subscriptions')
    .where('subscribable_type', '=', 'Label')
    .where('subscribable_id', '=', id)
    .execute();
  await db.deleteFrom('labels').where('id', '=', id).execute();
}

/**
 * Open and closed issues per label of a project, as GitLab 8.13 counted them for the Label entity: as an
 * anonymous user, so nothing on a project that is not public, and never a confidential issue.
 */
export async function labelIssueCounts(
  db: Executor,
  labelIds: number[],
  projectIds?: number[],
): Promise<Map<number, { open: number; closed: number }>> {
  const result = new Map<number, { open: number; closed: number }>();
  if (labelIds.length === 0) return result;
  const rows = await db
    .selectFrom('label_links as ll')
    .innerJoin('issues as i', 'i.id', 'll.target_id')
    .select(['ll.label_id', 'i.closed'])
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('ll.target_type', '=', 'Issue')
    .where('ll.label_id', 'in', labelIds)
    .where('i.confidential', '=', 0)
    .$if(projectIds !== undefined, (q) =>
      q.where('i.project_id', 'in', projectIds!.length > 0 ? projectIds! : [-1]),
    )
    .groupBy(['ll.label_id', 'i.closed'])
    .execute();
  for (const row of rows) {
    const entry = result.get(row.label_id) ?? { open: 0, closed: 0 };
    if (row.closed === 1) entry.closed = Number(row.count);
    else entry.open = Number(row.count);
    result.set(row.label_id, entry);
  }
  return result;
}

/** Open (opened or reopened) merge requests per label, for the Label entity; deleted MRs do not count. */
export async function labelOpenMergeRequestCounts(
  db: Executor,
  labelIds: number[],
  projectIds?: number[],
): Promise<Map<number, number>> {
  const result = new Map<number, number>();
  if (labelIds.length === 0) return result;
  const rows = await db
    .selectFrom('label_links as ll')
    .innerJoin('merge_requests as mr', 'mr.id', 'll.target_id')
    .select('ll.label_id')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('ll.target_type', '=', 'MergeRequest')
    .where('ll.label_id', 'in', labelIds)
    .where('mr.state', 'in', ['opened', 'reopened'])
    .where('mr.deleted_at', 'is', null)
    .$if(projectIds !== undefined, (q) =>
      q.where('mr.target_project_id', 'in', projectIds!.length > 0 ? projectIds! : [-1]),
    )
    .groupBy('ll.label_id')
    .execute();
  for (const row of rows) result.set(row.label_id, Number(row.count));
  return result;
}

/** Labels of the project or its group by id, A→Z. */
export function findProjectLabelsByIds(db: Executor, projectId: number, ids: number[]): Promise<LabelRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('labels')
    .selectAll()
    .where(inProjectsOrTheirGroups('labels', [projectId]))
    .where('id', 'in', ids)
    .orderBy('title')
    .execute();
}
