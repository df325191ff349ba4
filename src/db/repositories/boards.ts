// Issue boards and their lists (GitLab 8.13's Board and List), and the issues each list shows: a label's
// list walks the label's links newest issue first; the Backlog and Done walk the project's open or
// closed issues by id and skip those carrying a board label. A page costs its own rows at any size.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import type { BoardRow, Executor, IssueRow, ListRow } from '../types.ts';

export const ListType = { Backlog: 0, Label: 1, Done: 2 } as const;

export function listProjectBoards(db: Executor, projectId: number): Promise<BoardRow[]> {
  return db.selectFrom('boards').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

export function findProjectBoard(
  db: Executor,
  projectId: number,
  boardId: number,
): Promise<BoardRow | undefined> {
  return db
    .selectFrom('boards')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', boardId)
    .executeTakeFirst();
}

export function insertBoard(
  db: Executor,
  values: { project_id: number; name: string; created_at: string },
): Promise<BoardRow> {
  return db
    .insertInto('boards')
    .values({ ...values, updated_at: values.created_at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateBoard(
  db: Executor,
  id: number,
  changes: { name?: string; hide_backlog_list?: number; hide_closed_list?: number; updated_at: string },
): Promise<BoardRow | undefined> {
  return db.updateTable('boards').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteBoard(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('boards').where('id', '=', id).execute();
}

/** Serializes the first board of a project on PostgreSQL (SQLite already has a single writer). */
export async function lockProject(db: Executor, dialect: string, id: number): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.selectFrom('projects').select('id').where('id', '=', id).forUpdate().execute();
}

/** The lists of these boards in 8.13's order: Backlog, the label lists by position, Done. */
export function listBoardLists(db: Executor, boardIds: number[]): Promise<ListRow[]> {
  if (boardIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('lists')
    .selectAll()
    .where('board_id', 'in', boardIds)
    .orderBy('board_id')
    .orderBy('list_type')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export function findBoardList(db: Executor, boardId: number, listId: number): Promise<ListRow | undefined> {
  return db
    .selectFrom('lists')
    .selectAll()
    .where('board_id', '=', boardId)
    .where('id', '=', listId)
    .executeTakeFirst();
}

export function insertList(
  db: Executor,
  values: {
    board_id: number;
    label_id: number | null;
    list_type: number;
    position: number | null;
    at: string;
  },
): Promise<ListRow> {
  const { at, ...rest } = values;
  return db
    .insertInto('lists')
    .values({ ...rest, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** How many label lists the board has (8.13's `lists.movable.size`) and the highest position. */
export async function labelListBounds(
  db: Executor,
  boardId: number,
): Promise<{ count: number; maxPosition: number | null }> {
  const row = await db
    .selectFrom('lists')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('position').as('max')])
    .where('board_id', '=', boardId)
    .where('list_type', '=', ListType.Label)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), maxPosition: row.max === null ? null : Number(row.max) };
}

/** Moves the label lists with a position in [from, to] by `delta` (a list's move or deletion). */
export async function shiftLabelLists(
  db: Executor,
  boardId: number,
  from: number,
  to: number,
  delta: 1 | -1,
  at: string,
): Promise<void> {
  await db
    .updateTable('lists')
    .set({ position: sql`position + ${delta}`, updated_at: at })
    .where('board_id', '=', boardId)
    .where('list_type', '=', ListType.Label)
    .where('position', '>=', from)
    .where('position', '<=', to)
    .execute();
}

export function updateListPosition(
  db: Executor,
  id: number,
  position: number,
  at: string,
): Promise<ListRow | undefined> {
  return db
    .updateTable('lists')
    .set({ position, updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteList(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('lists').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The labels of every label list on the project's boards (what a move to Done takes off). */
export async function projectBoardLabelIds(db: Executor, projectId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('lists')
    .innerJoin('boards', 'boards.id', 'lists.board_id')
    .select('lists.label_id')
    .distinct()
    .where('boards.project_id', '=', projectId)
    .where('lists.list_type', '=', ListType.Label)
    .execute();
  return rows.flatMap((row) => (row.label_id === null ? [] : [row.label_id]));
}

export interface BoardIssueQuery {
  projectId: number;
  /** A label's list: its label; the Backlog and Done: undefined. */
  labelId?: number;
  closed: boolean;
  /** The Backlog and Done leave out issues with any of these labels (the board's label lists). */
  excludedLabelIds: number[];
  /** Confidential issues other than this viewer's own are left out; undefined: all are shown. */
  confidentialViewerId?: number | null;
}

type Query = SelectQueryBuilder<Database, 'issues', object>;

function confidentialFilter(eb: ExpressionBuilder<Database, 'issues'>, viewerId: number | null) {
  return eb.or([
    eb('issues.confidential', '=', 0),
    ...(viewerId === null
      ? []
      : [eb('issues.author_id', '=', viewerId), eb('issues.assignee_id', '=', viewerId)]),
  ]);
}

function boardIssues(
  db: Executor,
  spec: BoardIssueQuery,
): { query: Query; order: 'll.target_id' | 'issues.id' } {
  let query: Query;
  let order: 'll.target_id' | 'issues.id';
  if (spec.labelId !== undefined) {
    query = db
      .selectFrom('label_links as ll')
      .innerJoin('issues', 'issues.id', 'll.target_id')
      .where('ll.label_id', '=', spec.labelId)
      .where('ll.target_type', '=', 'Issue') as unknown as Query;
    order = 'll.target_id';
  } else {
    query = db.selectFrom('issues') as Query;
    const excluded = spec.excludedLabelIds;
    if (excluded.length > 0) {
      query = query.where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('label_links as bl')
              .select('bl.id')
              .where('bl.target_type', '=', 'Issue')
              .whereRef('bl.target_id', '=', 'issues.id')
              .where('bl.label_id', 'in', excluded),
          ),
        ),
      );
    }
    order = 'issues.id';
  }
  query = query
    .where('issues.project_id', '=', spec.projectId)
    .where('issues.closed', '=', spec.closed ? 1 : 0);
  const viewerId = spec.confidentialViewerId;
  if (viewerId !== undefined) query = query.where((eb) => confidentialFilter(eb, viewerId));
  return { query, order };
}

/** A page of a list's issues, newest first. */
export function listBoardIssues(
  db: Executor,
  spec: BoardIssueQuery,
  limit: number,
  offset: number,
): Promise<IssueRow[]> {
  const { query, order } = boardIssues(db, spec);
  return query
    .selectAll('issues')
    .orderBy(order as 'issues.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute() as Promise<IssueRow[]>;
}

/** How many issues a list holds, counting no further than `cap`. */
export async function countBoardIssuesUpTo(
  db: Executor,
  spec: BoardIssueQuery,
  cap: number,
): Promise<number> {
  const { query } = boardIssues(db, spec);
  const row = await db
    .selectFrom(
      query
        .select('issues.id')
        .limit(cap + 1)
        .as('capped'),
    )
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
