// Merge requests (migration 040). Lists walk an index on (target project[, state], created_at or
// updated_at, id) and fetch whole rows only for the page (a deferred join), so page 1000 costs what page 1
// costs. Soft-deleted rows keep their iid and are otherwise invisible.
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import { inProjectsOrTheirGroups } from './milestones.ts';
import type {
  Executor,
  MergeRequestChanges,
  MergeRequestRow,
  MergeRequestState,
  NewMergeRequest,
} from '../types.ts';

export interface MergeRequestListQuery {
  /** One target project (a project's list) or several (a group's, the caller's readable ones). */
  targetProjectIds: number[];
  /** null: every state. */
  states: MergeRequestState[] | null;
  iids: number[] | null;
  /** v4's filters; undefined filters nothing. A null assignee asks for MRs without one. */
  authorId?: number;
  assigneeId?: number | null;
  sourceBranch?: string;
  targetBranch?: string;
  /** A case-insensitive substring of the title or description. */
  search?: string;
  /** Every one of these label titles. */
  labels?: string[];
  /** Merge requests with some label (true) or with none (false). */
  labelled?: boolean;
  /** Titles with a WIP prefix (true) or without one (false), matched as GitLab's wip scope does. */
  wip?: boolean;
  milestoneTitle?: string;
  noMilestone?: boolean;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  orderBy: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
  /** A milestone's merge requests only (v4's milestones/:id/merge_requests). */
  milestoneId?: number;
}

export const OPEN_STATES: MergeRequestState[] = ['opened', 'reopened'];

/** Inserts the row with the next iid of its target project (a unique index refuses a racing twin). */
export function insertMergeRequest(
  db: Executor,
  row: Omit<NewMergeRequest, 'iid'>,
): Promise<MergeRequestRow> {
  return db
    .insertInto('merge_requests')
    .values((eb) => ({
      ...row,
      iid: eb
        .selectFrom('merge_requests')
        .select(sql<number>`coalesce(max(iid), 0) + 1`.as('next'))
        .where('target_project_id', '=', row.target_project_id),
    }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findMergeRequest(
  db: Executor,
  targetProjectId: number,
  id: number,
): Promise<MergeRequestRow | undefined> {
  return db
    .selectFrom('merge_requests')
    .selectAll()
    .where('id', '=', id)
    .where('target_project_id', '=', targetProjectId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function findMergeRequestById(db: Executor, id: number): Promise<MergeRequestRow | undefined> {
  return db.selectFrom('merge_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The MRs (not deleted) of these ids, by id. */
export async function mergeRequestsByIds(db: Executor, ids: number[]): Promise<Map<number, MergeRequestRow>> {
  const result = new Map<number, MergeRequestRow>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom('merge_requests')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .where('deleted_at', 'is', null)
    .execute();
  for (const row of rows) result.set(row.id, row);
  return result;
}

/** An open MR with this source and target, other than `exceptId` (8.13's "already exists" check). */
export function findOpenTwin(
  db: Executor,
  mr: Pick<MergeRequestRow, 'source_project_id' | 'source_branch' | 'target_project_id' | 'target_branch'>,
  exceptId: number | null,
): Promise<MergeRequestRow | undefined> {
  let query = db
    .selectFrom('merge_requests')
    .selectAll()
    .where('target_project_id', '=', mr.target_project_id)
    .where('target_branch', '=', mr.target_branch)
    .where('state', 'in', OPEN_STATES)
    .where('source_project_id', '=', mr.source_project_id)
    .where('source_branch', '=', mr.source_branch)
    .where('deleted_at', 'is', null);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return query.executeTakeFirst();
}

function listFilter(db: Executor, query: MergeRequestListQuery) {
  const projects = query.targetProjectIds;
  let select =
    projects.length === 1
      ? db.selectFrom('merge_requests').where('target_project_id', '=', projects[0]!)
      : db
          .selectFrom('merge_requests')
          .where('target_project_id', 'in', projects.length > 0 ? projects : [-1]);
  if (query.states) select = select.where('state', 'in', query.states);
  if (query.iids) select = select.where('iid', 'in', query.iids.length > 0 ? query.iids : [-1]);
  if (query.milestoneId !== undefined) select = select.where('milestone_id', '=', query.milestoneId);
  if (query.authorId !== undefined) select = select.where('author_id', '=', query.authorId);
  if (query.assigneeId === null) select = select.where('assignee_id', 'is', null);
  else if (query.assigneeId !== undefined) select = select.where('assignee_id', '=', query.assigneeId);
  if (query.sourceBranch !== undefined) select = select.where('source_branch', '=', query.sourceBranch);
  if (query.targetBranch !== undefined) select = select.where('target_branch', '=', query.targetBranch);
  if (query.search) {
    const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    select = select.where((eb) => eb.or([like('title'), like('description')]));
  }
  if (query.wip !== undefined) {
    const prefixed = (eb: ExpressionBuilder<Database, 'merge_requests'>) =>
      eb.or(['wip:%', 'wip %', '[wip]%'].map((prefix) => sql<boolean>`lower(title) like ${prefix}`));
    select = select.where((eb) => (query.wip ? prefixed(eb) : eb.not(prefixed(eb))));
  }
  for (const title of query.labels ?? []) {
    select = select.where((eb) =>
      eb.exists(
        eb
          .selectFrom('label_links as ll')
          .innerJoin('labels as l', 'l.id', 'll.label_id')
          .select('ll.id')
          .where('ll.target_type', '=', 'MergeRequest')
          .whereRef('ll.target_id', '=', 'merge_requests.id')
          .where('l.title', '=', title),
      ),
    );
  }
  if (query.labelled !== undefined) {
    const labelled = query.labelled;
    select = select.where((eb) => {
      const some = eb.exists(
        eb
          .selectFrom('label_links as ll')
          .select('ll.id')
          .where('ll.target_type', '=', 'MergeRequest')
          .whereRef('ll.target_id', '=', 'merge_requests.id'),
      );
      return labelled ? some : eb.not(some);
    });
  }
  if (query.noMilestone) select = select.where('milestone_id', 'is', null);
  if (query.milestoneTitle !== undefined) {
    const title = query.milestoneTitle;
    select = select.where('milestone_id', 'in', (eb) =>
      eb
        .selectFrom('milestones as m')
        .select('m.id')
        .where(inProjectsOrTheirGroups('m', projects.length > 0 ? projects : [-1]))
        .where('m.title', '=', title),
    );
  }
  if (query.createdAfter) select = select.where('created_at', '>=', query.createdAfter);
  if (query.createdBefore) select = select.where('created_at', '<=', query.createdBefore);
  if (query.updatedAfter) select = select.where('updated_at', '>=', query.updatedAfter);
  if (query.updatedBefore) select = select.where('updated_at', '<=', query.updatedBefore);
  return select.where('deleted_at', 'is', null);
}

export async function countMergeRequests(db: Executor, query: MergeRequestListQuery): Promise<number> {
  const row = await listFilter(db, query)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Whether the list is a whole project's, or its part in some states, with nothing else filtered: its
 * length is then merge_request_counts' (migration 116).
 */
export function isPlainProjectList(query: MergeRequestListQuery): boolean {
  return (
    query.targetProjectIds.length === 1 &&
    query.iids === null &&
    query.authorId === undefined &&
    query.assigneeId === undefined &&
    query.sourceBranch === undefined &&
    query.targetBranch === undefined &&
    !query.search &&
    (query.labels?.length ?? 0) === 0 &&
    query.labelled === undefined &&
    query.wip === undefined &&
    query.milestoneTitle === undefined &&
    !query.noMilestone &&
    !query.createdAfter &&
    !query.createdBefore &&
    !query.updatedAfter &&
    !query.updatedBefore &&
    query.milestoneId === undefined
  );
}

/** A project's kept count of MRs in these states (null: every state), deleted ones not counted. */
export async function keptMergeRequestCount(
  db: Executor,
  projectId: number,
  states: MergeRequestState[] | null,
): Promise<number> {
  let select = db
    .selectFrom('merge_request_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('count'), eb.lit(0)).as('count'))
    .where('project_id', '=', projectId);
  if (states) select = select.where('state', 'in', states.length > 0 ? states : ['-']);
  const row = await select.executeTakeFirstOrThrow();
  return Number(row.count);
}

/** How many MRs the list has, counting no further than `cap` (a bounded walk of the index). */
export async function countMergeRequestsUpTo(
  db: Executor,
  query: MergeRequestListQuery,
  cap: number,
): Promise<number> {
  const row = await db
    .selectFrom(
      listFilter(db, query)
        .select('id')
        .limit(cap + 1)
        .as('capped'),
    )
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listMergeRequests(
  db: Executor,
  query: MergeRequestListQuery,
  offset: number,
  limit: number,
): Promise<MergeRequestRow[]> {
  const ids = await listFilter(db, query)
    .select('id')
    .orderBy(query.orderBy, query.sort)
    .orderBy('id', query.sort)
    .offset(offset)
    .limit(limit)
    .execute();
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('merge_requests')
    .selectAll()
    .where(
      'id',
      'in',
      ids.map((row) => row.id),
    )
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((row) => byId.get(row.id) ?? []);
}

/** A person's merge requests across projects (the dashboard): assigned to or written by one user. */
export interface UserMergeRequestQuery {
  assigneeId?: number;
  authorId?: number;
  /** Target projects the viewer may read the merge requests of. */
  targetProjectIds?: number[];
  /** null: every state. */
  states: MergeRequestState[] | null;
}

function userFilter(db: Executor, query: UserMergeRequestQuery) {
  let select = db.selectFrom('merge_requests').where('deleted_at', 'is', null);
  if (query.assigneeId !== undefined) select = select.where('assignee_id', '=', query.assigneeId);
  if (query.authorId !== undefined) select = select.where('author_id', '=', query.authorId);
  if (query.targetProjectIds !== undefined) {
    const ids = query.targetProjectIds;
    select = select.where('target_project_id', 'in', ids.length > 0 ? ids : [-1]);
  }
  if (query.states) select = select.where('state', 'in', query.states);
  return select;
}

/** The target projects of a person's merge requests in any state: a dashboard's candidates. */
export async function userMergeRequestProjectIds(
  db: Executor,
  query: Pick<UserMergeRequestQuery, 'assigneeId' | 'authorId'>,
): Promise<number[]> {
  const rows = await userFilter(db, { ...query, states: null })
    .select('target_project_id')
    .distinct()
    .execute();
  return rows.map((row) => row.target_project_id);
}

export async function countUserMergeRequests(db: Executor, query: UserMergeRequestQuery): Promise<number> {
  const row = await userFilter(db, query)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Newest first, the page's rows only. */
export function listUserMergeRequests(
  db: Executor,
  query: UserMergeRequestQuery,
  offset: number,
  limit: number,
): Promise<MergeRequestRow[]> {
  const ids = userFilter(db, query)
    .select('id')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit);
  return db
    .selectFrom('merge_requests')
    .selectAll()
    .where('id', 'in', ids)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Applies `changes` if the row still has `expected` (compare-and-swap on any columns, e.g. state), and
 * returns the new row, or undefined when another request changed it first.
 */
export async function updateMergeRequest(
  db: Executor,
  id: number,
  changes: MergeRequestChanges,
  expected: Partial<
    Pick<MergeRequestRow, 'state' | 'merge_status' | 'head_sha' | 'lock_version' | 'updated_at'>
  > = {},
): Promise<MergeRequestRow | undefined> {
  let query = db
    .updateTable('merge_requests')
    .set((eb) => ({ ...changes, lock_version: eb('lock_version', '+', 1) }))
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  for (const [column, value] of Object.entries(expected)) {
    query = query.where(column as 'state', value === null ? 'is' : '=', value as MergeRequestState);
  }
  return query.returningAll().executeTakeFirst();
}

/**
 * A push moved `branch` of the project to `head` (BLANK for a deletion): open MRs from it see the new
 * head, and open MRs from or into it must be checked again (8.13's RefreshService). Returns the MRs whose
 * source moved.
 */
export async function refreshForBranchPush(
  db: Executor,
  projectId: number,
  branch: string,
  head: string | null,
  at: string,
): Promise<MergeRequestRow[]> {
  const moved = await db
    .updateTable('merge_requests')
    .set({ head_sha: head, merge_status: 'unchecked', updated_at: at })
    .where('source_project_id', '=', projectId)
    .where('source_branch', '=', branch)
    .where('state', 'in', OPEN_STATES)
    .where('deleted_at', 'is', null)
    .returningAll()
    .execute();
  await db
    .updateTable('merge_requests')
    .set({ merge_status: 'unchecked' })
    .where('target_project_id', '=', projectId)
    .where('target_branch', '=', branch)
    .where('state', 'in', OPEN_STATES)
    .where('deleted_at', 'is', null)
    .execute();
  return moved;
}

/** Locked MRs of the project whose merge commit a push put on `branch`: the merges this push completes. */
export function findMergesInProgress(
  db: Executor,
  projectId: number,
  branch: string,
  commit: string,
): Promise<MergeRequestRow[]> {
  return db
    .selectFrom('merge_requests')
    .selectAll()
    .where('target_project_id', '=', projectId)
    .where('target_branch', '=', branch)
    .where('state', '=', 'locked')
    .where('in_progress_merge_commit_sha', '=', commit)
    .execute();
}

/** Open MRs into this branch of this project (on the target index; a push to it may merge them). */
export function findOpenIntoBranch(
  db: Executor,
  projectId: number,
  branch: string,
): Promise<MergeRequestRow[]> {
  return db
    .selectFrom('merge_requests')
    .selectAll()
    .where('target_project_id', '=', projectId)
    .where('target_branch', '=', branch)
    .where('state', 'in', OPEN_STATES)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Open MRs whose source is this branch of this project (a push to it updates them). */
export function findOpenFromSourceBranch(
  db: Executor,
  projectId: number,
  branch: string,
): Promise<MergeRequestRow[]> {
  return db
    .selectFrom('merge_requests')
    .selectAll()
    .where('source_project_id', '=', projectId)
    .where('source_branch', '=', branch)
    .where('state', 'in', OPEN_STATES)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Every locked MR (start-up recovery of merges a crash interrupted), oldest first. */
export function listLockedMergeRequests(db: Executor): Promise<MergeRequestRow[]> {
  return db
    .selectFrom('merge_requests')
    .selectAll()
    .where('state', '=', 'locked')
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}
