// Today's project issue boards (lib/api/boards.rb, boards_responses.rb, CE): boards listed (paginated),
// one by id, created with a name (Backlog and Done made with it), edited (name, hide_backlog_list,
// hide_closed_list) and deleted (204; never the last one) by reporters and up; a board's label lists
// as in v3, with v4's 204 on delete. The same services and views as v3.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { LoadedProject } from '../../http/loaders.ts';
import { paginateLoaded } from '../../http/pagination.ts';
import { optionalBoolean, presentString, requestParams } from '../../http/params.ts';
import { createBoard, destroyBoard, editBoard } from '../../services/issues/boards.ts';
import { loadBoardView, type BoardView } from '../../views/board-views.ts';
import { listBasicProjectViewsByIds } from '../../views/project-views.ts';
import { presentBasicProjectsV4 } from '../../presenters/api-v4/project.ts';
import { presentBoardV4, presentListV4 } from '../../presenters/api-v4/board.ts';
import { pathBoard, readable, registerBoardLists } from '../api-v3/boards.ts';
import { noContent, requireParams } from './conventions.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  /** The boards with their project as BasicProjectDetails (one read for the page). */
  const present = async (request: FastifyRequest, loaded: LoadedProject, views: BoardView[]) => {
    const [project] = presentBasicProjectsV4(
      await listBasicProjectViewsByIds(deps, [loaded.project.id], request.viewer),
      deps.config,
    );
    return views.map((view) => presentBoardV4(view, project ?? null));
  };

  registerBoardLists(app, deps, {
    page: (request, reply, items) => paginateLoaded(request, reply, baseUrl, items),
    presentBoards: present,
    presentList: presentListV4,
    answerListDeletion: (reply) => noContent(reply),
  });

  app.get('/projects/:id/boards/:board_id', async (request) => {
    const loaded = await readable(deps, request);
    const view = await loadBoardView(deps, loaded.project.id, await pathBoard(deps, request, loaded));
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
    const found = await pathBoard(deps, request, loaded);
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
    await destroyBoard(deps, loaded, await pathBoard(deps, request, loaded));
    return noContent(reply);
  });
}
