// GET /namespaces (reference/api-v3.md §7.9): administrators see every namespace, others their own and
// the groups they belong to; `search` matches name or path.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import {
  countNamespaces,
  listNamespaces,
  type NamespaceListFilter,
} from '../../db/repositories/namespaces.ts';
import { presentNamespace } from '../../presenters/group.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/namespaces', async (request, reply) => {
    const viewer = requireViewer(request);
    const search = optionalString(requestParams(request), 'search');
    const filter: NamespaceListFilter = {
      userId: viewer.admin === 1 ? undefined : viewer.id,
      search: search || undefined,
    };
    const db = deps.db.kysely;
    const rows = await paginate(
      request,
      reply,
      deps.config.externalUrl,
      () => countNamespaces(db, filter),
      (page) => listNamespaces(db, filter, page),
    );
    return rows.map(presentNamespace);
  });
}
