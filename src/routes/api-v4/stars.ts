// v4's stars: POST /projects/:id/star and POST /projects/:id/unstar, 201 with the project, 304 when it
// was already (not) starred.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject } from '../../http/loaders.ts';
import { starProject, unstarProject } from '../../services/projects/stars.ts';
import { presentProjectOnlyV4 } from './project-archiving.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  for (const [action, apply] of [
    ['star', starProject],
    ['unstar', unstarProject],
  ] as const) {
    app.post(`/projects/:id/${action}`, async (request, reply) => {
      const viewer = requireViewer(request);
      const { project } = await loadProject(deps, request);
      await apply(deps, viewer, project.id);
      return reply.status(201).send(await presentProjectOnlyV4(deps, viewer, project.id));
    });
  }
}
