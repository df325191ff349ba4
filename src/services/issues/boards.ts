// Issue boards (GitLab 8.13's Boards::CreateService, Boards::Lists::* and Boards::Issues::MoveService, and
// today's board create, update and destroy): each one transaction. A project's first board comes with a
// Backlog and a Done list; label lists take the next position and close the gap when deleted. Moving an
// issue between lists is an issue edit (editIssue): the old list's label off, the new one's on, closed
// when it goes to Done and reopened when it leaves it, with that edit's notes, events and hooks.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { apiError, errorInMessage, forbidden, validationFailed } from '../../errors.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  ListType,
  deleteBoard,
  deleteList,
  findBoardList,
  insertBoard,
  insertList,
  labelListBounds,
  listProjectBoards,
  lockProject,
  projectBoardLabelIds,
  shiftLabelLists,
  updateBoard,
  updateListPosition,
} from '../../db/repositories/boards.ts';
import { findLabelById } from '../../db/repositories/labels.ts';
import { canAdminBoardLists } from '../../policies/issues.ts';
import { editIssue } from './issues.ts';
import type { LoadedProject } from '../../http/loaders.ts';
import type { BoardRow, Executor, IssueRow, ListRow, UserRow } from '../../db/types.ts';

function adminOnly(loaded: LoadedProject): void {
  if (!canAdminBoardLists(loaded.access)) throw forbidden();
}

async function insertBoardWithLists(trx: Executor, projectId: number, name: string, at: string) {
  const board = await insertBoard(trx, { project_id: projectId, name, created_at: at });
  await insertList(trx, {
    board_id: board.id,
    label_id: null,
    list_type: ListType.Backlog,
    position: null,
    at,
  });
  await insertList(trx, { board_id: board.id, label_id: null, list_type: ListType.Done, position: null, at });
  return board;
}

/** Boards::ListService: the project's boards, its first one made on the first visit of the board page. */
export async function findOrCreateBoards(deps: Deps, loaded: LoadedProject): Promise<BoardRow[]> {
  const existing = await listProjectBoards(deps.db.kysely, loaded.project.id);
  if (existing.length > 0) return existing;
  return deps.db.kysely.transaction().execute(async (trx) => {
    await lockProject(trx, deps.db.dialect, loaded.project.id);
    const boards = await listProjectBoards(trx, loaded.project.id);
    if (boards.length > 0) return boards;
    return [await insertBoardWithLists(trx, loaded.project.id, 'Development', now())];
  });
}

/** v4's POST /projects/:id/boards: another board with its Backlog and Done. */
export async function createBoard(deps: Deps, loaded: LoadedProject, name: string): Promise<BoardRow> {
  adminOnly(loaded);
  return deps.db.kysely
    .transaction()
    .execute((trx) => insertBoardWithLists(trx, loaded.project.id, name, now()));
}

export async function editBoard(
  deps: Deps,
  loaded: LoadedProject,
  board: BoardRow,
  changes: { name?: string; hideBacklogList?: boolean; hideClosedList?: boolean },
): Promise<BoardRow> {
  adminOnly(loaded);
  const updated = await updateBoard(deps.db.kysely, board.id, {
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.hideBacklogList !== undefined ? { hide_backlog_list: changes.hideBacklogList ? 1 : 0 } : {}),
    ...(changes.hideClosedList !== undefined ? { hide_closed_list: changes.hideClosedList ? 1 : 0 } : {}),
    updated_at: now(),
  });
  return updated ?? board;
}

/** Boards::DestroyService: never the project's last board. */
export async function destroyBoard(deps: Deps, loaded: LoadedProject, board: BoardRow): Promise<void> {
  adminOnly(loaded);
  await deps.db.kysely.transaction().execute(async (trx) => {
    await lockProject(trx, deps.db.dialect, loaded.project.id);
    if ((await listProjectBoards(trx, loaded.project.id)).length <= 1)
      throw apiError(
        400,
        "The board could not be deleted, because the parent doesn't have any other boards.",
      );
    await deleteBoard(trx, board.id);
  });
}

/**
 * Boards::Lists::CreateService: a list of one of the project's labels at the next position. An unknown
 * label is `Label not found!`; a label that already has a list here is a validation error, as 8.13's
 * uniqueness check answered.
 */
export async function createBoardList(
  deps: Deps,
  loaded: LoadedProject,
  board: BoardRow,
  labelId: number,
): Promise<ListRow> {
  if (!(await findLabelById(deps.db.kysely, loaded.project.id, labelId)))
    throw errorInMessage('Label not found!');
  adminOnly(loaded);
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      const { maxPosition } = await labelListBounds(trx, board.id);
      return insertList(trx, {
        board_id: board.id,
        label_id: labelId,
        list_type: ListType.Label,
        position: maxPosition === null ? 0 : maxPosition + 1,
        at: now(),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw validationFailed({ label_id: ['has already been taken'] });
    throw error;
  }
}

/**
 * Boards::Lists::MoveService: a label list to a position in [0, label lists), the lists between shifted
 * by one. undefined when the move is not valid (the same position, or out of range).
 */
export async function moveBoardList(
  deps: Deps,
  loaded: LoadedProject,
  list: ListRow,
  position: number,
): Promise<ListRow | undefined> {
  adminOnly(loaded);
  return deps.db.kysely.transaction().execute(async (trx) => {
    await lockProject(trx, deps.db.dialect, loaded.project.id);
    const current = await findBoardList(trx, list.board_id, list.id);
    if (!current || current.list_type !== ListType.Label || current.position === null) return undefined;
    const { count } = await labelListBounds(trx, list.board_id);
    const old = current.position;
    if (position === old || position < 0 || position >= count) return undefined;
    const at = now();
    if (old < position) await shiftLabelLists(trx, list.board_id, old + 1, position, -1, at);
    else await shiftLabelLists(trx, list.board_id, position, old - 1, 1, at);
    return updateListPosition(trx, list.id, position, at);
  });
}

/** Boards::Lists::DestroyService: a label list, the lists after it moved up by one. */
export async function destroyBoardList(deps: Deps, loaded: LoadedProject, list: ListRow): Promise<boolean> {
  adminOnly(loaded);
  if (list.list_type !== ListType.Label) return false;
  return deps.db.kysely.transaction().execute(async (trx) => {
    await lockProject(trx, deps.db.dialect, loaded.project.id);
    const current = await findBoardList(trx, list.board_id, list.id);
    if (!current || current.position === null) return false;
    const at = now();
    await shiftLabelLists(trx, list.board_id, current.position + 1, 2_147_483_647, -1, at);
    return deleteList(trx, current.id);
  });
}

/**
 * Boards::Issues::MoveService: false when either list is not this board's or both are the same. To a
 * label's list: the old list's label off and the new one's on; to Done: every board label off and the
 * issue closed; from Done: reopened.
 */
export async function moveBoardIssue(
  deps: Deps,
  viewer: UserRow,
  loaded: LoadedProject,
  board: BoardRow,
  issue: IssueRow,
  fromListId: number | undefined,
  toListId: number | undefined,
): Promise<IssueRow | undefined> {
  const db = deps.db.kysely;
  const from = fromListId === undefined ? undefined : await findBoardList(db, board.id, fromListId);
  const to = toListId === undefined ? undefined : await findBoardList(db, board.id, toListId);
  if (!from || !to || from.id === to.id) return undefined;
  const remove =
    to.list_type === ListType.Label
      ? from.label_id === null
        ? []
        : [from.label_id]
      : await projectBoardLabelIds(db, loaded.project.id);
  const stateEvent =
    from.list_type === ListType.Done ? 'reopen' : to.list_type === ListType.Done ? 'close' : undefined;
  return editIssue(deps, viewer, loaded, issue, {
    addLabelIds: to.label_id === null ? [] : [to.label_id],
    removeLabelIds: remove,
    ...(stateEvent ? { stateEvent } : {}),
  });
}
