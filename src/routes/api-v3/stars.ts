// Star (201, or 304 when already starred) and unstar (200, or 304 when not starred).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject } from '../../http/loaders.ts';
import { loadProjectViewById } from '../../views/project-views.ts';
import { presentOneProject } from '../../presenters/api-v3/project.ts';
import { starProject, unstarProject } from '../../services/projects/stars.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  // Star responses leave the owner out and carry no runners_token.
  app.post('/projects/:id/star', async (request, reply) => {
    const viewer = requireViewer(request);
    const { project } = await loadProject(deps, request);
    await starProject(deps, viewer, project.id);
    reply.status(201);
    const view = await loadProjectViewById(deps, viewer, project.id);
    return presentOneProject(view, deps.config, { owner: false });
  });

  app.delete('/projects/:id/star', async (request) => {
    const viewer = requireViewer(request);
    const { project } = await loadProject(deps, request);
    await unstarProject(deps, viewer, project.id);
    const view = await loadProjectViewById(deps, viewer, project.id);
    return presentOneProject(view, deps.config, { owner: false });
  });
}
