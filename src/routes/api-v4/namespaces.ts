// Namespaces in v4: the list (search; administrators every namespace, others their own and their groups)
// and one namespace by id or path, 404 when the list would not show it; whether a path is taken (with a
// free one suggested).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { boundedSearch, optionalInteger, optionalString, requestParams } from '../../http/params.ts';
import { notFound } from '../../errors.ts';
import {
  countNamespaceList,
  findListedNamespace,
  listNamespacesPage,
  namespacePathTaken,
} from '../../views/namespace-views.ts';
import { presentNamespace } from '../../presenters/api-v4/group.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  app.get('/namespaces', async (request, reply) => {
    const viewer = requireViewer(request);
    const search = boundedSearch(optionalString(requestParams(request), 'search'));
    return paginate(
      request,
      reply,
      baseUrl,
      () => countNamespaceList(deps, viewer, search),
      async (page) =>
        (await listNamespacesPage(deps, viewer, search, page)).map((n) => presentNamespace(n, baseUrl)),
    );
  });

  app.get<{ Params: { id: string } }>('/namespaces/:id/exists', async (request) => {
    requireViewer(request);
    const parentId = optionalInteger(requestParams(request), 'parent_id');
    return namespacePathTaken(deps, request.params.id, parentId);
  });

  app.get<{ Params: { id: string } }>('/namespaces/:id', async (request) => {
    const viewer = requireViewer(request);
    const namespace = await findListedNamespace(deps, viewer, request.params.id);
    if (!namespace) throw notFound('Namespace');
    return presentNamespace(namespace, baseUrl);
  });
}
