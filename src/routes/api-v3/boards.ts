// Issue boards (GitLab 8.13's lib/api/boards.rb): the project's boards with their label lists, and the
// label lists of a board: read by whoever reads the project, added (a label of the project, at the next
// position), moved and deleted by reporters and up. Backlog and Done are never shown or touched here. A
// board comes into being on the first visit of the project's board page, as in 8.13.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { errorInMessage, forbidden, paramsMissing } from '../../errors.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { optionalInteger, pathInteger, requestParams, type Params } from '../../http/params.ts';
import { canReadBoards } from '../../policies/issues.ts';
import { createBoardList, destroyBoardList, moveBoardList } from '../../services/issues/boards.ts';
import {
  labelLists,
  listBoardViews,
  loadBoardOr404,
  loadBoardView,
  loadLabelListOr404,
  type BoardListView,
  type BoardView,
} from '../../views/board-views.ts';
import { presentBoard, presentList } from '../../presenters/api-v3/board.ts';

/** The project, for a caller who may read its boards (404 hidden, 403 without the right). */
export async function readable(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  requireViewer(request);
  const loaded = await loadProject(deps, request);
  if (!canReadBoards(loaded.access)) throw forbidden();
  return loaded;
}

/** Grape's `requires :name, type: Integer`. */
export function requiredInteger(params: Params, name: string): number {
  const value = optionalInteger(params, name);
  if (value === undefined) throw paramsMissing(name);
  return value;
}

const listNotMoved = () => errorInMessage('List could not be moved!');
const listNotDeleted = () => errorInMessage('List could not be deleted!');

/** The `:board_id` board of the project, or 404. */
export const pathBoard = (deps: Deps, request: FastifyRequest, loaded: LoadedProject) =>
  loadBoardOr404(deps, loaded.project.id, pathInteger(request.params as Params, 'board_id'));

/** Where the versions differ on the boards list and a board's label lists. */
export interface BoardWire {
  /** v3 answers a whole list; v4 one page of it, with the pagination headers. */
  page: <T>(request: FastifyRequest, reply: FastifyReply, items: T[]) => T[];
  presentBoards: (request: FastifyRequest, loaded: LoadedProject, views: BoardView[]) => unknown;
  presentList: (view: BoardListView) => unknown;
  /** The answer to a deleted label list. */
  answerListDeletion: (reply: FastifyReply, view: BoardListView) => unknown;
}

/** GET /projects/:id/boards and a board's label lists, in both versions, answered through `wire`. */
export function registerBoardLists(app: FastifyInstance, deps: Deps, wire: BoardWire): void {
  const { page, presentList } = wire;

  app.get('/projects/:id/boards', async (request, reply) => {
    const loaded = await readable(deps, request);
    const views = page(request, reply, await listBoardViews(deps, loaded.project.id));
    return wire.presentBoards(request, loaded, views);
  });

  app.get('/projects/:id/boards/:board_id/lists', async (request, reply) => {
    const loaded = await readable(deps, request);
    const view = await loadBoardView(deps, loaded.project.id, await pathBoard(deps, request, loaded));
    return page(request, reply, labelLists(view)).map(presentList);
  });

  app.get('/projects/:id/boards/:board_id/lists/:list_id', async (request) => {
    const loaded = await readable(deps, request);
    const found = await pathBoard(deps, request, loaded);
    return presentList(
      await loadLabelListOr404(deps, found, pathInteger(request.params as Params, 'list_id')),
    );
  });

  app.post('/projects/:id/boards/:board_id/lists', async (request, reply) => {
    const labelId = requiredInteger(requestParams(request), 'label_id');
    const loaded = await readable(deps, request);
    const found = await pathBoard(deps, request, loaded);
    const list = await createBoardList(deps, loaded, found, labelId);
    return reply.status(201).send(presentList(await loadLabelListOr404(deps, found, list.id)));
  });

  app.put('/projects/:id/boards/:board_id/lists/:list_id', async (request) => {
    const listId = pathInteger(request.params as Params, 'list_id');
    const position = requiredInteger(requestParams(request), 'position');
    const loaded = await readable(deps, request);
    const found = await pathBoard(deps, request, loaded);
    const view = await loadLabelListOr404(deps, found, listId);
    const moved = await moveBoardList(deps, loaded, view.list, position);
    if (!moved) throw listNotMoved();
    return presentList({ list: moved, label: view.label });
  });

  app.delete('/projects/:id/boards/:board_id/lists/:list_id', async (request, reply) => {
    const listId = pathInteger(request.params as Params, 'list_id');
    const loaded = await readable(deps, request);
    const found = await pathBoard(deps, request, loaded);
    const view = await loadLabelListOr404(deps, found, listId);
    if (!(await destroyBoardList(deps, loaded, view.list))) throw listNotDeleted();
    return wire.answerListDeletion(reply, view);
  });
}

/** v3: whole lists, 8.13's entities, and a deleted list answered as it was. */
export function register(app: FastifyInstance, deps: Deps): void {
  registerBoardLists(app, deps, {
    page: (_request, _reply, items) => items,
    presentBoards: (_request, _loaded, views) => views.map(presentBoard),
    presentList,
    answerListDeletion: (_reply, view) => presentList(view),
  });
}
