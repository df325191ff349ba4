// v4's tags (lib/api/tags.rb): the list paginated, searchable and sortable (order_by name, updated or
// version; sort asc or desc; GitLab's default is the newest commit first), one tag, create (tag_name,
// ref, message: v4 dropped release_description, and the …/release routes with it) and delete (204).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadProjectRepository, loadWritableRepository } from '../../http/loaders.ts';
import { paginateLoaded } from '../../http/pagination.ts';
import { optionalOneOf, optionalString, requestParams } from '../../http/params.ts';
import { paramValueInvalid } from '../../errors.ts';
import { createTag, deleteTag } from '../../services/repository/tag-changes.ts';
import { listTagViews, loadTagViewOr404, type TagView } from '../../views/tag-views.ts';
import { presentTag } from '../../presenters/api-v4/tag.ts';
import { tagCreation } from '../api-v3/tags.ts';
import type { WildcardRequest } from '../api-v3/branches.ts';
import { matchesSearch } from './branches.ts';
import { noContent, requireParams } from './conventions.ts';

const ORDERS = ['name', 'updated', 'version'] as const;
const compare: Record<(typeof ORDERS)[number], (a: TagView, b: TagView) => number> = {
  name: (a, b) => (a.tag.name < b.tag.name ? -1 : a.tag.name > b.tag.name ? 1 : 0),
  updated: (a, b) =>
    Date.parse(a.tag.commit?.committedDate ?? '0') - Date.parse(b.tag.commit?.committedDate ?? '0'),
  version: (a, b) => a.tag.name.localeCompare(b.tag.name, 'en', { numeric: true }),
};

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  app.get('/projects/:id/repository/tags', async (request, reply) => {
    const project = await loadProjectRepository(deps, request);
    const params = requestParams(request);
    const search = optionalString(params, 'search');
    const orderBy =
      optionalOneOf(params, 'order_by', ORDERS, () => paramValueInvalid('order_by')) ?? 'updated';
    const sort = optionalOneOf(params, 'sort', ['asc', 'desc'], () => paramValueInvalid('sort')) ?? 'desc';
    const views = (await listTagViews(deps, project))
      .filter((view) => search === undefined || matchesSearch(view.tag.name, search))
      .sort((a, b) => (sort === 'asc' ? 1 : -1) * compare[orderBy](a, b));
    return paginateLoaded(request, reply, baseUrl, views).map((view) => presentTag(view, project, baseUrl));
  });

  app.get('/projects/:id/repository/tags/*', async (request: WildcardRequest) => {
    const project = await loadProjectRepository(deps, request);
    return presentTag(await loadTagViewOr404(deps, project, request.params['*']), project, baseUrl);
  });

  app.post('/projects/:id/repository/tags', async (request, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    const params = requestParams(request);
    requireParams(params, 'tag_name', 'ref');
    const created = await createTag(deps, pusher, { ...tagCreation(params), releaseDescription: undefined });
    return reply.code(201).send(presentTag(created, pusher, baseUrl));
  });

  app.delete('/projects/:id/repository/tags/*', async (request: WildcardRequest, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    await deleteTag(deps, pusher, request.params['*']);
    return noContent(reply);
  });
}
