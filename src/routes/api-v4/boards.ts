// Today's project issue boards (lib/api/boards.rb, boards_responses.rb, CE): boards listed (paginated),
// one by id, created with a name (Backlog and Done made with it), edited (name, hide_backlog_list,
// hide_closed_list) and deleted (204; never the last one) by reporters and up; a board's label lists
// as in v3, with v4's 204 on delete. The same services and views as v3.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden } from '../../errors.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginateLoaded } from '../../http/pagination.ts';
import {
  optionalBoolean,
  pathInteger,
  presentString,
  requestParams,
  type Params,
} from '../../http/params.ts';
import { canReadBoards } from '../../policies/issues.ts';
import {
  createBoard,
  createBoardList,
  destroyBoard,
  destroyBoardList,
  editBoard,
  moveBoardList,
} from '../../services/issues/boards.ts';
import {
  labelLists,
  listBoardViews,
  loadBoardOr404,
  loadBoardView,
  loadLabelListOr404,
  type BoardView,
} from '../../views/board-views.ts';
import { listBasicProjectViewsByIds } from '../../views/project-views.ts';
import { presentBasicProjectsV4 } from '../../presenters/api-v4/project.ts';
import { presentBoardV4, presentListV4 } from '../../presenters/api-v4/board.ts';
import { listNotDeleted, listNotMoved, requiredInteger } from '../api-v3/boards.ts';
import { noContent, requireParams } from './conventions.ts';

async function readable(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  requireViewer(request);
  const loaded = await loadProject(deps, request);
  if (!canReadBoards(loaded.access)) throw forbidden();
  return loaded;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const board = (request: FastifyRequest, loaded: LoadedProject) =>
    loadBoardOr404(deps, loaded.project.id, pathInteger(request.params as Params, 'board_id'));

  /** The boards with their project as BasicProjectDetails (one read for the page). */
  const present = async (request: FastifyRequest, loaded: LoadedProject, views: BoardView[]) => {
    const [project] = presentBasicProjectsV4(
      await listBasicProjectViewsByIds(deps, [loaded.project.id], request.viewer),
      deps.config,
    );
    return views.map((view) => presentBoardV4(view, project ?? null));
  };

  app.get('/projects/:id/boards', async (request, reply) => {
    const loaded = await readable(deps, request);
    const views = paginateLoaded(
      request,
      reply,
      deps.config.externalUrl,
      await listBoardViews(deps, loaded.project.id),
    );
    return present(request, loaded, views);
  });

  app.get('/projects/:id/boards/:board_id', async (request) => {
    const loaded = await readable(deps, request);
    const view = await loadBoardView(deps, loaded.project.id, await board(request, loaded));
    return (await present(request, loaded, [view]))[0];
  });

  app.post('/projects/:id/boards', async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'name');
    const loaded = await readable(deps, request);
    const created = await createBoard(deps, loaded, String(params.name));
    const view = await loadBoardView(deps, loaded.project.id, created);
    return reply.status(201).send((await present(request, loaded, [view]))[0]);
  });

  app.put('/projects/:id/boards/:board_id', async (request) => {
    const params = requestParams(request);
    const loaded = await readable(deps, request);
    const found = await board(request, loaded);
    const hideBacklogList = optionalBoolean(params, 'hide_backlog_list');
    const hideClosedList = optionalBoolean(params, 'hide_closed_list');
    const edited = await editBoard(deps, loaded, found, {
      ...(presentString(params, 'name') !== undefined ? { name: presentString(params, 'name')! } : {}),
      ...(hideBacklogList !== undefined ? { hideBacklogList } : {}),
      ...(hideClosedList !== undefined ? { hideClosedList } : {}),
    });
    const view = await loadBoardView(deps, loaded.project.id, edited);
    return (await present(request, loaded, [view]))[0];
  });

  app.delete('/projects/:id/boards/:board_id', async (request, reply) => {
    const loaded = await readable(deps, request);
    await destroyBoard(deps, loaded, await board(request, loaded));
    return noContent(reply);
  });

  app.get('/projects/:id/boards/:board_id/lists', async (request, reply) => {
    const loaded = await readable(deps, request);
    const view = await loadBoardView(deps, loaded.project.id, await board(request, loaded));
    return paginateLoaded(request, reply, deps.config.externalUrl, labelLists(view)).map(presentListV4);
  });

  app.get('/projects/:id/boards/:board_id/lists/:list_id', async (request) => {
    const loaded = await readable(deps, request);
    const found = await board(request, loaded);
    return presentListV4(
      await loadLabelListOr404(deps, found, pathInteger(request.params as Params, 'list_id')),
    );
  });

  app.post('/projects/:id/boards/:board_id/lists', async (request, reply) => {
    const labelId = requiredInteger(requestParams(request), 'label_id');
    const loaded = await readable(deps, request);
    const found = await board(request, loaded);
    const list = await createBoardList(deps, loaded, found, labelId);
    return reply.status(201).send(presentListV4(await loadLabelListOr404(deps, found, list.id)));
  });

  app.put('/projects/:id/boards/:board_id/lists/:list_id', async (request) => {
    const listId = pathInteger(request.params as Params, 'list_id');
    const position = requiredInteger(requestParams(request), 'position');
    const loaded = await readable(deps, request);
    const found = await board(request, loaded);
    const view = await loadLabelListOr404(deps, found, listId);
    const moved = await moveBoardList(deps, loaded, view.list, position);
    if (!moved) throw listNotMoved();
    return presentListV4({ list: moved, label: view.label });
  });

  app.delete('/projects/:id/boards/:board_id/lists/:list_id', async (request, reply) => {
    const listId = pathInteger(request.params as Params, 'list_id');
    const loaded = await readable(deps, request);
    const found = await board(request, loaded);
    const view = await loadLabelListOr404(deps, found, listId);
    if (!(await destroyBoardList(deps, loaded, view.list))) throw listNotDeleted();
    return noContent(reply);
  });
}
