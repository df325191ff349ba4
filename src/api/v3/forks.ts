// Forks (reference/api-v3.md §7.2 P11, P19, P20): POST /projects/fork/:id into the caller's namespace or
// `namespace` (id, then path or name); the admin-only link and unlink of fork relations.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { loadProject } from '../../http/loaders.ts';
import { notFound } from '../../errors.ts';
import { optionalString, pathId, requestParams } from '../../http/params.ts';
import {
  findNamespaceById,
  findNamespaceByPathOrName,
  findUserNamespace,
} from '../../db/repositories/namespaces.ts';
import { canCreateProjectsIn } from '../../policies/groups.ts';
import { presentForkedProjectLink } from '../../presenters/member.ts';
import { presentProjectById } from '../../views/project-views.ts';
import { forkProject, linkFork, unlinkFork } from '../../services/forks.ts';
import type { NamespaceRow, UserRow } from '../../db/types.ts';

async function targetNamespace(
  deps: Deps,
  viewer: UserRow,
  given: string | undefined,
): Promise<NamespaceRow> {
  const db = deps.db.kysely;
  if (given === undefined || given.trim() === '') {
    const own = await findUserNamespace(db, viewer.id);
    if (!own) throw notFound('Target Namespace');
    return own;
  }
  const id = pathId(given.trim());
  const namespace =
    (id !== undefined ? await findNamespaceById(db, id) : undefined) ??
    (await findNamespaceByPathOrName(db, given.trim()));
  if (!namespace || !(await canCreateProjectsIn(db, viewer, namespace))) throw notFound('Target Namespace');
  return namespace;
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/projects/fork/:id', async (request, reply) => {
    const viewer = requireViewer(request);
    const source = await loadProject(deps, request);
    const target = await targetNamespace(deps, viewer, optionalString(requestParams(request), 'namespace'));
    const forkId = await forkProject(deps, viewer, source, source.access, target);
    reply.status(201);
    return presentProjectById(deps, viewer, forkId, { runnersToken: true });
  });

  app.post('/projects/:id/fork/:forked_from_id', async (request, reply) => {
    requireAdmin(request);
    const source = await loadProject(
      deps,
      request,
      (request.params as Record<string, string>).forked_from_id,
    );
    const fork = await loadProject(deps, request);
    const link = await linkFork(deps, fork, source);
    reply.status(201);
    return presentForkedProjectLink(link);
  });

  app.delete('/projects/:id/fork', async (request) => {
    const fork = await loadProject(deps, request);
    // README row 23: administrators only (GitLab let project owners do it).
    requireAdmin(request);
    const link = await unlinkFork(deps, fork);
    return link ? presentForkedProjectLink(link) : null;
  });
}
