// Boards for the API and the board page: boards with their lists and labels in two statements whatever
// the number of boards; a list's issues as one index walk per list (label lists by their label's links,
// the Backlog and Done by the project's open or closed issues) and a count that stops at a cap.
import type { Deps } from '../deps.ts';
import {
  ListType,
  countBoardIssuesUpTo,
  findBoardList,
  findProjectBoard,
  listBoardIssues,
  listBoardLists,
  listProjectBoards,
  type BoardIssueQuery,
} from '../db/repositories/boards.ts';
import { findProjectLabelsByIds, listProjectLabels } from '../db/repositories/labels.ts';
import { labelTitlesByTarget } from '../db/repositories/issues.ts';
import { recordNotFound, notFound } from '../errors.ts';
import { canReadConfidentialIssues, canReadIssues } from '../policies/issues.ts';
import type { LoadedProject } from '../http/loaders.ts';
import type { BoardRow, IssueRow, LabelRow, ListRow, UserRow } from '../db/types.ts';

export { ListType };

export interface BoardListView {
  list: ListRow;
  label: LabelRow | null;
}

export interface BoardView {
  board: BoardRow;
  /** Every list in 8.13's order: Backlog, label lists by position, Done. */
  lists: BoardListView[];
}

/** Boards with their lists and labels: two statements. */
async function loadBoardViews(deps: Deps, projectId: number, boards: BoardRow[]): Promise<BoardView[]> {
  const db = deps.db.kysely;
  const lists = await listBoardLists(
    db,
    boards.map((board) => board.id),
  );
  const labelIds = [...new Set(lists.flatMap((list) => (list.label_id === null ? [] : [list.label_id])))];
  const labels = new Map(
    (await findProjectLabelsByIds(db, projectId, labelIds)).map((label) => [label.id, label]),
  );
  return boards.map((board) => ({
    board,
    lists: lists
      .filter((list) => list.board_id === board.id)
      .map((list) => ({ list, label: list.label_id === null ? null : (labels.get(list.label_id) ?? null) })),
  }));
}

export async function listBoardViews(deps: Deps, projectId: number): Promise<BoardView[]> {
  return loadBoardViews(deps, projectId, await listProjectBoards(deps.db.kysely, projectId));
}

/** The project's board `:board_id`, or 404 `Board Not Found` (8.13's not_found!('Board')). */
export async function loadBoardOr404(deps: Deps, projectId: number, boardId: number): Promise<BoardRow> {
  const board = await findProjectBoard(deps.db.kysely, projectId, boardId);
  if (!board) throw notFound('Board');
  return board;
}

export async function loadBoardView(deps: Deps, projectId: number, board: BoardRow): Promise<BoardView> {
  return (await loadBoardViews(deps, projectId, [board]))[0]!;
}

/** A label list of the board (`lists.destroyable.find`): 404 `Not found` for any other list. */
export async function loadLabelListOr404(
  deps: Deps,
  board: BoardRow,
  listId: number,
): Promise<BoardListView> {
  const list = await findBoardList(deps.db.kysely, board.id, listId);
  if (!list || list.list_type !== ListType.Label) throw recordNotFound();
  return (await loadBoardViews(deps, board.project_id, [board]))[0]!.lists.find(
    (view) => view.list.id === list.id,
  )!;
}

/** The label lists only: what the API shows of a board. */
export const labelLists = (view: BoardView): BoardListView[] =>
  view.lists.filter((list) => list.list.list_type === ListType.Label);

export interface BoardCard {
  issue: IssueRow;
  labels: LabelRow[];
}

export interface BoardColumn {
  view: BoardListView;
  cards: BoardCard[];
  /** How many issues the list holds, up to COLUMN_COUNT_CAP (a count past it says "more"). */
  count: number;
  page: number;
}

export const COLUMN_COUNT_CAP = 1000;

/** What a list shows to this viewer: its issues (Issues::ListService's rules), none without read_issue. */
function issueQuery(
  loaded: LoadedProject,
  viewer: UserRow | null,
  view: BoardView,
  list: ListRow,
): BoardIssueQuery {
  const boardLabelIds = labelLists(view).flatMap((l) => (l.list.label_id === null ? [] : [l.list.label_id]));
  return {
    projectId: loaded.project.id,
    ...(list.label_id !== null ? { labelId: list.label_id } : {}),
    closed: list.list_type === ListType.Done,
    excludedLabelIds: list.list_type === ListType.Label ? [] : boardLabelIds,
    ...(canReadConfidentialIssues(loaded.access) ? {} : { confidentialViewerId: viewer?.id ?? null }),
  };
}

/**
 * The board page's columns: per list one page of `perPage` newest issues (the page `pages` names for
 * that list, else the first) and its capped count, then every card's labels in one statement.
 */
export async function boardColumns(
  deps: Deps,
  viewer: UserRow | null,
  loaded: LoadedProject,
  view: BoardView,
  pages: Map<number, number>,
  perPage: number,
): Promise<BoardColumn[]> {
  const db = deps.db.kysely;
  const readable = canReadIssues(loaded.access, loaded);
  const columns = await Promise.all(
    view.lists.map(async (listView) => {
      const page = pages.get(listView.list.id) ?? 1;
      if (!readable) return { view: listView, issues: [] as IssueRow[], count: 0, page };
      const query = issueQuery(loaded, viewer, view, listView.list);
      const [issues, count] = await Promise.all([
        listBoardIssues(db, query, perPage, (page - 1) * perPage),
        countBoardIssuesUpTo(db, query, COLUMN_COUNT_CAP),
      ]);
      return { view: listView, issues, count, page };
    }),
  );
  const ids = columns.flatMap((column) => column.issues.map((issue) => issue.id));
  const [titles, labels] = await Promise.all([
    labelTitlesByTarget(db, 'Issue', ids),
    ids.length === 0 ? [] : listProjectLabels(db, loaded.project.id),
  ]);
  const byTitle = new Map(labels.map((label) => [label.title, label]));
  return columns.map((column) => ({
    view: column.view,
    count: column.count,
    page: column.page,
    cards: column.issues.map((issue) => ({
      issue,
      labels: (titles.get(issue.id) ?? []).flatMap((title) => {
        const label = byTitle.get(title);
        return label ? [label] : [];
      }),
    })),
  }));
}
