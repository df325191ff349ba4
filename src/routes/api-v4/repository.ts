// The repository of a project as v4 has it (GitLab's lib/api/repositories.rb): the tree (paginated, `ref`
// for v3's `ref_name`), blobs as JSON and raw, archives, compare (with `straight`), contributors (sorted,
// paginated) and merge_base, over v3's loaders and views. Who may read is as in v3.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { apiError, grapeError, notFound, paramValueInvalid } from '../../errors.ts';
import { loadProjectRepository } from '../../http/loaders.ts';
import { parsePage, setPaginationHeaders } from '../../http/pagination.ts';
import {
  optionalBoolean,
  optionalOneOf,
  optionalString,
  optionalStringList,
  grapeParams,
  requestParams,
} from '../../http/params.ts';
import { rawBlob } from '../../views/blob-views.ts';
import { compareRefs, mergeBaseOf } from '../../views/compare-views.ts';
import { repositoryContributors } from '../../views/contributor-views.ts';
import { pageOfListing, treeListing } from '../../views/tree-views.ts';
import { presentContributor } from '../../presenters/api-v3/contributor.ts';
import { compareJsonChunks } from '../../presenters/api-v4/compare.ts';
import { presentCommit } from '../../presenters/api-v4/commit.ts';
import { blobJsonChunks } from '../../presenters/api-v4/repository-file.ts';
import { presentTreeObject } from '../../presenters/api-v4/tree.ts';
import { registerArchiveRoutes, sendRaw } from '../api-v3/repository.ts';
import { v4Params } from './conventions.ts';

type ShaRequest = FastifyRequest<{ Params: { id: string; sha: string } }>;

/** v4's names for v3's tree parameters. */
const TREE_RENAMES = { ref: 'ref_name' };

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  app.get('/projects/:id/repository/tree', async (request, reply) => {
    const project = await loadProjectRepository(deps, request);
    const params = v4Params(request, TREE_RENAMES);
    const path = optionalString(params, 'path') ?? '';
    const listing = await treeListing(deps, project, {
      ref: optionalString(params, 'ref_name'),
      path,
      recursive: optionalBoolean(params, 'recursive') ?? false,
    });
    const page = parsePage(request);
    const { rows, total } = await pageOfListing(listing, page);
    setPaginationHeaders(request, reply, baseUrl, page, total);
    return rows.map((entry) => presentTreeObject(entry, path));
  });

  app.get('/projects/:id/repository/blobs/:sha', async (request: ShaRequest, reply) => {
    const project = await loadProjectRepository(deps, request);
    const blob = await rawBlob(deps, project, request.params.sha);
    return reply.type('application/json').send(Readable.from(blobJsonChunks(blob)));
  });

  app.get('/projects/:id/repository/blobs/:sha/raw', async (request: ShaRequest, reply) => {
    const project = await loadProjectRepository(deps, request);
    return sendRaw(reply, await rawBlob(deps, project, request.params.sha));
  });

  registerArchiveRoutes(app, deps, true);

  app.get('/projects/:id/repository/compare', async (request, reply) => {
    const project = await loadProjectRepository(deps, request);
    const params = requestParams(request);
    const required = grapeParams(params, [
      { name: 'from', kind: 'string', required: true },
      { name: 'to', kind: 'string', required: true },
    ]);
    const [from, to] = [required.from as string, required.to as string];
    const fromProject = optionalString(params, 'from_project_id');
    if (fromProject !== undefined && fromProject !== String(project.project.id)) {
      // Comparing across forks needs the other repository's objects here: not offered.
      throw notFound('Project');
    }
    const straight = optionalBoolean(params, 'straight') ?? false;
    const compare = await compareRefs(deps, project, from, to, straight);
    return reply
      .type('application/json')
      .send(Readable.from(compareJsonChunks(compare, { from, to }, project, baseUrl)));
  });

  app.get('/projects/:id/repository/contributors', async (request, reply) => {
    const project = await loadProjectRepository(deps, request);
    const params = requestParams(request);
    const orderBy = optionalOneOf(params, 'order_by', ['name', 'email', 'commits'] as const, () =>
      paramValueInvalid('order_by'),
    );
    const sort = optionalOneOf(params, 'sort', ['asc', 'desc'] as const, () => paramValueInvalid('sort'));
    const list = await repositoryContributors(
      deps,
      project,
      orderBy || sort ? { orderBy: orderBy ?? 'commits', sort: sort ?? 'asc' } : undefined,
    );
    const page = parsePage(request);
    setPaginationHeaders(request, reply, baseUrl, page, list.length);
    // v4's Contributor is v3's.
    return list.slice(page.offset, page.offset + page.limit).map(presentContributor);
  });

  app.get('/projects/:id/repository/merge_base', async (request) => {
    const project = await loadProjectRepository(deps, request);
    const refs = optionalStringList(requestParams(request), 'refs');
    if (refs === undefined) throw grapeError(400, 'refs is missing');
    if (refs.length < 2) throw apiError(400, 'Provide at least 2 refs');
    const found = await mergeBaseOf(deps, project, refs);
    if ('unknown' in found) {
      const noun = found.unknown.length === 1 ? 'ref' : 'refs';
      throw apiError(400, `Could not find ${noun}: ${found.unknown.join(', ')}`);
    }
    if (!found.commit) throw notFound('Merge Base');
    return presentCommit(found.commit, project, baseUrl);
  });
}
