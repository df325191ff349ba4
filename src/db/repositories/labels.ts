// Project labels, looked up by (project_id, title) on its unique index, and their issue and MR counts.
import type { Executor, LabelRow } from '../types.ts';
import type { Database } from '../schema.ts';
import type { Insertable, Updateable } from 'kysely';

export function listProjectLabels(db: Executor, projectId: number): Promise<LabelRow[]> {
  return db.selectFrom('labels').selectAll().where('project_id', '=', projectId).orderBy('title').execute();
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

export function findLabelsByTitles(db: Executor, projectId: number, titles: string[]): Promise<LabelRow[]> {
  if (titles.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('labels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('title', 'in', titles)
    .execute();
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
  return (await findLabelByTitle(db, values.project_id, values.title))!;
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
    .groupBy('ll.label_id')
    .execute();
  for (const row of rows) result.set(row.label_id, Number(row.count));
  return result;
}

export function findProjectLabelsByIds(db: Executor, projectId: number, ids: number[]): Promise<LabelRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('labels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .orderBy('title')
    .execute();
}
