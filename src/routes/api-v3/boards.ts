// Issue boards (GitLab 8.13's lib/api/boards.rb): the project's boards with their label lists, and the
// label lists of a board: read by whoever reads the project, added (a label of the project, at the next
// position), moved and deleted by reporters and up. Backlog and Done are never shown or touched here. A
// board comes into being on the first visit of the project's board page, as in 8.13.
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
} from '../../views/board-views.ts';
import { presentBoard, presentList } from '../../presenters/api-v3/board.ts';

async function readable(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
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

export const listNotMoved = () => errorInMessage('List could not be moved!');
export const listNotDeleted = () => errorInMessage('List could not be deleted!');

export function register(app: FastifyInstance, deps: Deps): void {
  const board = async (request: FastifyRequest, loaded: LoadedProject) =>
    loadBoardOr404(deps, loaded.project.id, pathInteger(request.params as Params, 'board_id'));

  app.get('/projects/:id/boards', async (request) => {
    const loaded = await readable(deps, request);
    return (await listBoardViews(deps, loaded.project.id)).map(presentBoard);
  });

  app.get('/projects/:id/boards/:board_id/lists', async (request) => {
    const loaded = await readable(deps, request);
    return labelLists(await loadBoardView(deps, loaded.project.id, await board(request, loaded))).map(
      presentList,
    );
  });

  app.get('/projects/:id/boards/:board_id/lists/:list_id', async (request) => {
    const loaded = await readable(deps, request);
    const found = await board(request, loaded);
    return presentList(
      await loadLabelListOr404(deps, found, pathInteger(request.params as Params, 'list_id')),
    );
  });

  app.post('/projects/:id/boards/:board_id/lists', async (request, reply) => {
    const labelId = requiredInteger(requestParams(request), 'label_id');
    const loaded = await readable(deps, request);
    const found = await board(request, loaded);
    const list = await createBoardList(deps, loaded, found, labelId);
    return reply.status(201).send(presentList(await loadLabelListOr404(deps, found, list.id)));
  });

  app.put('/projects/:id/boards/:board_id/lists/:list_id', async (request) => {
    const params = requestParams(request);
    const listId = pathInteger(request.params as Params, 'list_id');
    const position = requiredInteger(params, 'position');
    const loaded = await readable(deps, request);
    const found = await board(request, loaded);
    const view = await loadLabelListOr404(deps, found, listId);
    const moved = await moveBoardList(deps, loaded, view.list, position);
    if (!moved) throw listNotMoved();
    return presentList({ list: moved, label: view.label });
  });

  app.delete('/projects/:id/boards/:board_id/lists/:list_id', async (request) => {
    const listId = pathInteger(request.params as Params, 'list_id');
    const loaded = await readable(deps, request);
    const found = await board(request, loaded);
    const view = await loadLabelListOr404(deps, found, listId);
    if (!(await destroyBoardList(deps, loaded, view.list))) throw listNotDeleted();
    return presentList(view);
  });
}
