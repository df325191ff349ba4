// Star, unstar (201/304, 200/304) and archive, unarchive (owners; 201, idempotent).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject } from '../../http/loaders.ts';
import { forbidden } from '../../errors.ts';
import { isProjectOwner } from '../../policies/access.ts';
import { presentProjectById } from '../../views/project-views.ts';
import { setArchived, starProject, unstarProject } from '../../services/stars.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  // README row 15: star responses leave the owner out; row 14: no runners_token there.
  app.post('/projects/:id/star', async (request, reply) => {
    const viewer = requireViewer(request);
    const { project } = await loadProject(deps, request);
    await starProject(deps, viewer, project.id);
    reply.status(201);
    return presentProjectById(deps, viewer, project.id, { owner: false });
  });

  app.delete('/projects/:id/star', async (request) => {
    const viewer = requireViewer(request);
    const { project } = await loadProject(deps, request);
    await unstarProject(deps, viewer, project.id);
    return presentProjectById(deps, viewer, project.id, { owner: false });
  });

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    app.post(`/projects/:id/${action}`, async (request, reply) => {
      const viewer = requireViewer(request);
      const { project, access } = await loadProject(deps, request);
      if (!isProjectOwner(access)) throw forbidden();
      await setArchived(deps, project.id, archived);
      reply.status(201);
      // README row 14: archive and unarchive carry runners_token (only owners and admins get here).
      return presentProjectById(deps, viewer, project.id, { runnersToken: true });
    });
  }
}
