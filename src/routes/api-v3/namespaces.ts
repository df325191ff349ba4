// GET /namespaces: administrators see every namespace, others their own and
// the groups they belong to; `search` matches name or path.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { boundedSearch, optionalString, requestParams } from '../../http/params.ts';
import { countNamespaceList, listNamespacesPage } from '../../views/namespace-views.ts';
import { presentNamespace } from '../../presenters/api-v3/group.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/namespaces', async (request, reply) => {
    const viewer = requireViewer(request);
    const search = boundedSearch(optionalString(requestParams(request), 'search'));
    return paginate(
      request,
      reply,
      deps.config.externalUrl,
      () => countNamespaceList(deps, viewer, search),
      async (page) => (await listNamespacesPage(deps, viewer, search, page)).map(presentNamespace),
    );
  });
}
