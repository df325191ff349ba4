// Star (201, or 304 when already starred) and unstar (200, or 304 when not starred).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject } from '../../http/loaders.ts';
import { loadProjectById } from '../../views/project-views.ts';
import { starProject, unstarProject } from '../../services/projects/stars.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  // Star responses leave the owner out and carry no runners_token.
  app.post('/projects/:id/star', async (request, reply) => {
    const viewer = requireViewer(request);
    const { project } = await loadProject(deps, request);
    await starProject(deps, viewer, project.id);
    reply.status(201);
    return loadProjectById(deps, viewer, project.id, { owner: false });
  });

  app.delete('/projects/:id/star', async (request) => {
    const viewer = requireViewer(request);
    const { project } = await loadProject(deps, request);
    await unstarProject(deps, viewer, project.id);
    return loadProjectById(deps, viewer, project.id, { owner: false });
  });
}
