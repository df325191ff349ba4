// /<namespace>/<project>/boards… at GitLab 8.13's paths: the board page (its first visit makes the
// project's board with Backlog and Done, as Boards::ListService did), one board by id, a card's move
// (POST …/boards/:board_id/issues/:iid with from_list_id and to_list_id: the same service as the API's
// issue edit, so labels, close/reopen, notes, events and hooks come with it; a form's answer is a
// redirect back, the board script's an empty 204) and adding a label's list. Who reads the project sees
// the board; reporters and up move cards and add lists.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { hiddenAsks, loadIssueByIid, loadPageProject, type LoadedProject } from '../../http/loaders.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { ApiError, notFound } from '../../errors.ts';
import { canAdminBoardLists, canReadBoards } from '../../policies/issues.ts';
import { createBoardList, findOrCreateBoards, moveBoardIssue } from '../../services/issues/boards.ts';
import {
  COLUMN_COUNT_CAP,
  ListType,
  boardColumns,
  loadBoardOr404,
  loadBoardView,
} from '../../views/board-views.ts';
import { projectLabelList } from '../../views/label-views.ts';
import { BoardPage, type BoardColumnItem } from '../../presenters/html/boards.tsx';
import { boardPath, projectFullPath } from '../../domain/paths.ts';
import type { BoardRow } from '../../db/types.ts';
import { loadProjectHead } from './project-head.ts';
import { pageContext } from './web-session.ts';
import { positiveInteger, signedIn } from './page-params.ts';
import { sendPage } from './render.ts';

const PER_PAGE = 20;

function listTitle(kind: number, label: string | undefined): string {
  if (kind === ListType.Backlog) return 'Backlog';
  if (kind === ListType.Done) return 'Done';
  return label ?? '';
}

const KINDS = { 0: 'backlog', 1: 'label', 2: 'done' } as const;

/** A JSON answer for the board script (it asks with `Accept: application/json`), a page otherwise. */
const wantsJson = (request: FastifyRequest) => (request.headers.accept ?? '').includes('application/json');

export function registerBoardPages(web: FastifyInstance, deps: Deps): void {
  const loadBoardProject = (request: FastifyRequest): Promise<LoadedProject> =>
    loadPageProject(deps, request, (loaded) => canReadBoards(loaded.access));
  const loadBoard = (request: FastifyRequest, loaded: LoadedProject, param: string) => {
    const id = positiveInteger(String((request.params as Record<string, unknown>)[param]));
    if (id === undefined) throw notFound();
    return loadBoardOr404(deps, loaded.project.id, id);
  };

  const showBoard = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    board: BoardRow,
    boards: BoardRow[],
  ) => {
    const params = requestParams(request);
    const pages = new Map<number, number>();
    const listId = positiveInteger(optionalString(params, 'list_id'));
    const page = positiveInteger(optionalString(params, 'page'));
    if (listId !== undefined && page !== undefined) pages.set(listId, Math.min(page, 1000));
    const view = await loadBoardView(deps, loaded.project.id, board);
    const canMove = request.viewer !== null && canAdminBoardLists(loaded.access);
    const [project, columns, labels] = await Promise.all([
      loadProjectHead(deps, loaded),
      boardColumns(deps, request.viewer, loaded, view, pages, PER_PAGE),
      canMove ? projectLabelList(deps, request.viewer, loaded) : Promise.resolve([]),
    ]);
    const listed = new Set(view.lists.map((list) => list.list.label_id));
    const items: BoardColumnItem[] = columns.map((column) => ({
      id: column.view.list.id,
      title: listTitle(column.view.list.list_type, column.view.label?.title),
      kind: KINDS[column.view.list.list_type as 0 | 1 | 2],
      count: column.count,
      page: column.page,
      cards: column.cards.map((card) => ({
        iid: card.issue.iid,
        title: card.issue.title,
        confidential: card.issue.confidential === 1,
        labels: card.labels.map((label) => label.title),
      })),
    }));
    return sendPage(
      reply,
      <BoardPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        board={{ id: board.id, name: board.name }}
        boards={boards.map((other) => ({ id: other.id, name: other.name }))}
        columns={items}
        countCap={COLUMN_COUNT_CAP}
        perPage={PER_PAGE}
        canMove={canMove}
        addableLabels={
          canMove
            ? labels
                .filter((view) => !listed.has(view.label.id))
                .map((view) => ({ id: view.label.id, title: view.label.title }))
            : null
        }
      />,
    );
  };

  web.get('/:namespace/:project/boards', async (request, reply) => {
    const loaded = await loadBoardProject(request);
    const boards = await findOrCreateBoards(deps, loaded);
    return showBoard(request, reply, loaded, boards[0]!, boards);
  });

  web.get('/:namespace/:project/boards/:board_id', async (request, reply) => {
    const loaded = await loadBoardProject(request);
    const board = await hiddenAsks(request, () => loadBoard(request, loaded, 'board_id'));
    const boards = await findOrCreateBoards(deps, loaded);
    return showBoard(request, reply, loaded, board, boards);
  });

  web.post('/:namespace/:project/boards/:board_id/issues/:iid', async (request, reply) => {
    const viewer = signedIn(request);
    const loaded = await loadBoardProject(request);
    const board = await loadBoard(request, loaded, 'board_id');
    const issue = await loadIssueByIid(deps, request, loaded, 'iid');
    const params = requestParams(request);
    const moved = canAdminBoardLists(loaded.access)
      ? await moveBoardIssue(
          deps,
          viewer,
          loaded,
          board,
          issue,
          positiveInteger(optionalString(params, 'from_list_id')),
          positiveInteger(optionalString(params, 'to_list_id')),
        )
      : undefined;
    if (wantsJson(request)) {
      return moved
        ? reply.status(204).send()
        : reply.status(422).send({ message: 'The issue could not be moved' });
    }
    if (!moved) throw new ApiError(422, { message: 'The issue could not be moved' });
    return reply.redirect(boardPath(projectFullPath(loaded), board.id), 302);
  });

  web.post('/:namespace/:project/boards/:board_id/lists', async (request, reply) => {
    signedIn(request);
    const loaded = await loadBoardProject(request);
    const board = await loadBoard(request, loaded, 'board_id');
    const labelId = positiveInteger(optionalString(requestParams(request), 'label_id'));
    if (labelId === undefined) throw new ApiError(422, { message: 'label_id is missing' });
    await createBoardList(deps, loaded, board, labelId);
    return reply.redirect(boardPath(projectFullPath(loaded), board.id), 302);
  });
}
