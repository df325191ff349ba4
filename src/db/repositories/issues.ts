// Issues, their iids and their label links. Lists walk (project_id[, closed], created_at|updated_at, id)
// or (author_id, …) in the order asked, apply the offset to the index before the page's rows are read
// (deferred join), and count either from issue_counts (one row) or no further than a cap.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import { inProjectsOrTheirGroups } from './milestones.ts';
import type { Executor, IssueChanges, IssueRow, NewIssue } from '../types.ts';

/** The next iid of `usage` in a project: an upsert whose row lock serialises concurrent creates. */
export async function nextInternalId(db: Executor, projectId: number, usage: string): Promise<number> {
  const row = await db
    .insertInto('internal_ids')
    .values({ project_id: projectId, usage, last_value: 1 })
    .onConflict((oc) =>
      oc.columns(['project_id', 'usage']).doUpdateSet({ last_value: sql`internal_ids.last_value + 1` }),
    )
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return Number(row.last_value);
}

/**
 * Puts a project's counter at least at `value` (milestones made before their table had a counter row,
 * a bench's bulk load). Never lowers it.
 */
export async function raiseInternalId(
  db: Executor,
  projectId: number,
  usage: string,
  value: number,
): Promise<void> {
  await db
    .insertInto('internal_ids')
    .values({ project_id: projectId, usage, last_value: value })
    .onConflict((oc) =>
      oc.columns(['project_id', 'usage']).doUpdateSet({
        last_value: sql`case when internal_ids.last_value > ${value} then internal_ids.last_value else ${value} end`,
      }),
    )
    .execute();
}

export function insertIssue(db: Executor, values: NewIssue): Promise<IssueRow> {
  return db.insertInto('issues').values(values).returningAll().executeTakeFirstOrThrow();
}

export function findIssuesByIds(db: Executor, ids: number[]): Promise<IssueRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('issues').selectAll().where('id', 'in', ids).execute();
}

export function findIssueById(db: Executor, id: number): Promise<IssueRow | undefined> {
  return db.selectFrom('issues').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findProjectIssue(db: Executor, projectId: number, id: number): Promise<IssueRow | undefined> {
  return db
    .selectFrom('issues')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

/** Several issues of a project by iid (the issues a commit message closes). */
export function findIssuesByIids(db: Executor, projectId: number, iids: number[]): Promise<IssueRow[]> {
  if (iids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('issues')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('iid', 'in', iids)
    .orderBy('iid')
    .execute();
}

export async function issuesByIds(db: Executor, ids: number[]): Promise<Map<number, IssueRow>> {
  const result = new Map<number, IssueRow>();
  if (ids.length === 0) return result;
  for (const row of await db
    .selectFrom('issues')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute())
    result.set(row.id, row);
  return result;
}

/** `when.closed`: only while the issue is (not) closed, so of two concurrent transitions one wins. */
export function updateIssue(
  db: Executor,
  id: number,
  changes: IssueChanges,
  when: { closed?: 0 | 1; updated_at?: string } = {},
): Promise<IssueRow | undefined> {
  let query = db.updateTable('issues').set(changes).where('id', '=', id);
  if (when.closed !== undefined) query = query.where('closed', '=', when.closed);
  // A change made from one version of the row (a task ticked on a page drawn from it).
  if (when.updated_at !== undefined) query = query.where('updated_at', '=', when.updated_at);
  return query.returningAll().executeTakeFirst();
}

export async function deleteIssue(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('issues').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export interface IssueCounts {
  opened: number;
  total: number;
}

export async function findIssueCounts(db: Executor, projectId: number): Promise<IssueCounts> {
  const row = await db
    .selectFrom('issue_counts')
    .select(['opened', 'total'])
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return { opened: Number(row?.opened ?? 0), total: Number(row?.total ?? 0) };
}

export interface IssueListFilter {
  /** One project (the project list, a milestone's issues) or several (a group's projects). */
  projectIds?: number[];
  /** GET /issues: the caller's own issues. */
  authorId?: number;
  /** The issue page's assignee filter: a user, or null for issues without one. */
  assigneeId?: number | null;
  /** The issue page's search: a case-insensitive substring of the title or description. */
  search?: string;
  /** 'opened' = opened or reopened; undefined = all. */
  state?: 'opened' | 'closed';
  iid?: number;
  /** v4's `iids[]`. */
  iids?: number[];
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  milestoneId?: number;
  /** Issues with a milestone of this title (GitLab's `milestone` parameter). */
  milestoneTitle?: string;
  /** Issues without a milestone (`milestone=No Milestone`). */
  noMilestone?: boolean;
  /** Label titles: issues with any of them, or with all of them. */
  labels?: { titles: string[]; all: boolean };
  /** Issues with some label (true) or with none (false). */
  labelled?: boolean;
  /**
   * Confidential issues the viewer may see: all of them in these projects, elsewhere only those the
   * viewer wrote or is assigned to. Undefined: every confidential issue is visible.
   */
  confidential?: { viewerId: number; visibleInProjects: number[] };
  orderBy: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
}

type IssueQuery = SelectQueryBuilder<Database, 'issues', object>;

function labelMatch(eb: ExpressionBuilder<Database, 'issues'>, titles: string[]) {
  return eb.exists(
    eb
      .selectFrom('label_links as ll')
      .innerJoin('labels as l', 'l.id', 'll.label_id')
      .select('ll.id')
      .where('ll.target_type', '=', 'Issue')
      .whereRef('ll.target_id', '=', 'issues.id')
      .where('l.title', 'in', titles),
  );
}

function filtered(db: Executor, filter: IssueListFilter): IssueQuery {
  let query = db.selectFrom('issues') as IssueQuery;
  if (filter.projectIds !== undefined) {
    query =
      filter.projectIds.length === 1
        ? query.where('issues.project_id', '=', filter.projectIds[0]!)
        : query.where('issues.project_id', 'in', filter.projectIds.length > 0 ? filter.projectIds : [-1]);
  }
  if (filter.authorId !== undefined) query = query.where('issues.author_id', '=', filter.authorId);
  if (filter.assigneeId === null) query = query.where('issues.assignee_id', 'is', null);
  else if (filter.assigneeId !== undefined) query = query.where('issues.assignee_id', '=', filter.assigneeId);
  if (filter.search) {
    const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    query = query.where((eb) => eb.or([like('issues.title'), like('issues.description')]));
  }
  if (filter.state !== undefined)
    query = query.where('issues.closed', '=', filter.state === 'closed' ? 1 : 0);
  if (filter.iid !== undefined) query = query.where('issues.iid', '=', filter.iid);
  if (filter.iids !== undefined)
    query = query.where('issues.iid', 'in', filter.iids.length > 0 ? filter.iids : [-1]);
  if (filter.createdAfter) query = query.where('issues.created_at', '>=', filter.createdAfter);
  if (filter.createdBefore) query = query.where('issues.created_at', '<=', filter.createdBefore);
  if (filter.updatedAfter) query = query.where('issues.updated_at', '>=', filter.updatedAfter);
  if (filter.updatedBefore) query = query.where('issues.updated_at', '<=', filter.updatedBefore);
  if (filter.milestoneId !== undefined) query = query.where('issues.milestone_id', '=', filter.milestoneId);
  if (filter.noMilestone) query = query.where('issues.milestone_id', 'is', null);
  if (filter.milestoneTitle !== undefined) {
    const title = filter.milestoneTitle;
    query = query.where((eb) =>
      eb(
        'issues.milestone_id',
        'in',
        (filter.projectIds === undefined
          ? eb.selectFrom('milestones as m')
          : eb
              .selectFrom('milestones as m')
              .where(inProjectsOrTheirGroups('m', filter.projectIds.length > 0 ? filter.projectIds : [-1]))
        )
          .select('m.id')
          .where('m.title', '=', title),
      ),
    );
  }
  const labels = filter.labels;
  if (labels && labels.titles.length > 0) {
    if (labels.all) {
      for (const title of labels.titles) query = query.where((eb) => labelMatch(eb, [title]));
    } else {
      query = query.where((eb) => labelMatch(eb, labels.titles));
    }
  }
  if (filter.labelled !== undefined) {
    const labelled = filter.labelled;
    query = query.where((eb) => {
      const some = eb.exists(
        eb
          .selectFrom('label_links as ll')
          .select('ll.id')
          .where('ll.target_type', '=', 'Issue')
          .whereRef('ll.target_id', '=', 'issues.id'),
      );
      return labelled ? some : eb.not(some);
    });
  }
  const confidential = filter.confidential;
  if (confidential) {
    query = query.where((eb) =>
      eb.or([
        eb('issues.confidential', '=', 0),
        eb('issues.author_id', '=', confidential.viewerId),
        eb('issues.assignee_id', '=', confidential.viewerId),
        ...(confidential.visibleInProjects.length > 0
          ? [eb('issues.project_id', 'in', confidential.visibleInProjects)]
          : []),
      ]),
    );
  }
  return query;
}

/** How many issues the list has, counting no further than `cap` (a bounded walk of the index). */
export async function countIssuesUpTo(db: Executor, filter: IssueListFilter, cap: number): Promise<number> {
  const row = await db
    .selectFrom(
      filtered(db, filter)
        .select('issues.id')
        .limit(cap + 1)
        .as('capped'),
    )
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The projects holding issues that match (before any project filter): a dashboard's candidates. */
export async function issueProjectIds(
  db: Executor,
  filter: Pick<IssueListFilter, 'authorId' | 'assigneeId'>,
): Promise<number[]> {
  const rows = await filtered(db, { ...filter, orderBy: 'created_at', sort: 'desc' })
    .select('issues.project_id')
    .distinct()
    .execute();
  return rows.map((row) => row.project_id);
}

export function listIssues(
  db: Executor,
  filter: IssueListFilter,
  limit: number,
  offset: number,
): Promise<IssueRow[]> {
  const order = filter.orderBy === 'updated_at' ? 'issues.updated_at' : 'issues.created_at';
  const ids = filtered(db, filter)
    .select('issues.id')
    .orderBy(order, filter.sort)
    .orderBy('issues.id', filter.sort)
    .limit(limit)
    .offset(offset);
  return db
    .selectFrom('issues')
    .selectAll()
    .where('id', 'in', ids)
    .orderBy(filter.orderBy, filter.sort)
    .orderBy('id', filter.sort)
    .execute();
}

/** Label titles of a page of issues or merge requests (`targetType`), A→Z, keyed by their id. */
export async function labelTitlesByTarget(
  db: Executor,
  targetType: string,
  targetIds: number[],
): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>();
  if (targetIds.length === 0) return result;
  const rows = await db
    .selectFrom('label_links as ll')
    .innerJoin('labels as l', 'l.id', 'll.label_id')
    .select(['ll.target_id', 'l.title'])
    .where('ll.target_type', '=', targetType)
    .where('ll.target_id', 'in', targetIds)
    .orderBy('l.title')
    .execute();
  for (const row of rows) {
    const list = result.get(row.target_id) ?? [];
    list.push(row.title);
    result.set(row.target_id, list);
  }
  return result;
}

export async function labelIdsOf(db: Executor, targetType: string, targetId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('label_links')
    .select('label_id')
    .where('target_type', '=', targetType)
    .where('target_id', '=', targetId)
    .execute();
  return rows.map((row) => row.label_id);
}

/** Replaces the labels of an issue or a merge request with these. */
export async function setLabelLinks(
  db: Executor,
  targetType: string,
  targetId: number,
  labelIds: number[],
  at: string,
): Promise<void> {
  await db
    .deleteFrom('label_links')
    .where('target_type', '=', targetType)
    .where('target_id', '=', targetId)
    .execute();
  const unique = [...new Set(labelIds)];
  if (unique.length === 0) return;
  await db
    .insertInto('label_links')
    .values(
      unique.map((label_id) => ({ label_id, target_type: targetType, target_id: targetId, created_at: at })),
    )
    .execute();
}

/** Upvotes, downvotes and user notes of a page of issues (or notes), one statement each. */
export async function voteCounts(
  db: Executor,
  awardableType: string,
  ids: number[],
): Promise<Map<number, { up: number; down: number }>> {
  const result = new Map<number, { up: number; down: number }>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom('award_emoji')
    .select(['awardable_id', 'name'])
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('awardable_type', '=', awardableType)
    .where('awardable_id', 'in', ids)
    .where('name', 'in', ['thumbsup', 'thumbsdown'])
    .groupBy(['awardable_id', 'name'])
    .execute();
  for (const row of rows) {
    const entry = result.get(row.awardable_id) ?? { up: 0, down: 0 };
    if (row.name === 'thumbsup') entry.up = Number(row.count);
    else entry.down = Number(row.count);
    result.set(row.awardable_id, entry);
  }
  return result;
}

export async function userNoteCounts(
  db: Executor,
  noteableType: string,
  ids: number[],
): Promise<Map<number, number>> {
  const result = new Map<number, number>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom('notes')
    .select('noteable_id')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('noteable_type', '=', noteableType)
    .where('noteable_id', 'in', ids)
    .where('system', '=', 0)
    .groupBy('noteable_id')
    .execute();
  for (const row of rows) if (row.noteable_id !== null) result.set(row.noteable_id, Number(row.count));
  return result;
}

/** Deletes the polymorphic rows of an issue (label links, notes, awards, subscriptions, todos). */
export async function deleteIssueDependents(db: Executor, targetType: string, id: number): Promise<void> {
  const noteIds = db
    .selectFrom('notes')
    .select('id')
    .where('noteable_type', '=', targetType)
    .where('noteable_id', '=', id);
  await db
    .deleteFrom('award_emoji')
    .where('awardable_type', '=', 'Note')
    .where('awardable_id', 'in', noteIds)
    .execute();
  await db
    .deleteFrom('label_links')
    .where('target_type', '=', targetType)
    .where('target_id', '=', id)
    .execute();
  await db
    .deleteFrom('notes')
    .where('noteable_type', '=', targetType)
    .where('noteable_id', '=', id)
    .execute();
  await db
    .deleteFrom('award_emoji')
    .where('awardable_type', '=', targetType)
    .where('awardable_id', '=', id)
    .execute();
  await db
    .deleteFrom('subscriptions')
    .where('subscribable_type', '=', targetType)
    .where('subscribable_id', '=', id)
    .execute();
  await db.deleteFrom('todos').where('target_type', '=', targetType).where('target_id', '=', id).execute();
}
