// Forks: POST /projects/fork/:id into the caller's namespace or
// `namespace` (id, then path or name); the admin-only link and unlink of fork relations.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { loadProject, loadTargetNamespace } from '../../http/loaders.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { presentForkedProjectLink } from '../../presenters/api-v3/member.ts';
import { loadProjectViewById } from '../../views/project-views.ts';
import { presentOneProject } from '../../presenters/api-v3/project.ts';
import { forkProject, linkFork, unlinkFork } from '../../services/projects/forks.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/projects/fork/:id', async (request, reply) => {
    const viewer = requireViewer(request);
    const source = await loadProject(deps, request);
    const target = await loadTargetNamespace(
      deps,
      viewer,
      optionalString(requestParams(request), 'namespace'),
    );
    const forkId = await forkProject(deps, viewer, source, source.access, target);
    reply.status(201);
    const view = await loadProjectViewById(deps, viewer, forkId);
    return presentOneProject(view, deps.config, { runnersToken: true });
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
    // Administrators only (GitLab let project owners do it).
    requireAdmin(request);
    const link = await unlinkFork(deps, fork);
    return link ? presentForkedProjectLink(link) : null;
  });
}
