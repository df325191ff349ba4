// Archive and unarchive a project: owners only; 201 with the project, idempotent.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject } from '../../http/loaders.ts';
import { forbidden } from '../../errors.ts';
import { isProjectOwner } from '../../policies/access.ts';
import { loadProjectViewById } from '../../views/project-views.ts';
import { presentOneProject } from '../../presenters/api-v3/project.ts';
import { setArchived } from '../../services/projects/project-archiving.ts';

/** The two actions, each with the archived flag it sets (both versions' routes). */
export const ARCHIVING = [
  ['archive', true],
  ['unarchive', false],
] as const;

/** Archive or unarchive the project of the request (owners only); the caller and the project's id. */
export async function setArchivedFromRequest(deps: Deps, request: FastifyRequest, archived: boolean) {
  const viewer = requireViewer(request);
  const { project, access } = await loadProject(deps, request);
  if (!isProjectOwner(access)) throw forbidden();
  await setArchived(deps, project.id, archived);
  return { viewer, projectId: project.id };
}

export function register(app: FastifyInstance, deps: Deps): void {
  for (const [action, archived] of ARCHIVING) {
    app.post(`/projects/:id/${action}`, async (request, reply) => {
      const { viewer, projectId } = await setArchivedFromRequest(deps, request, archived);
      reply.status(201);
      // Only owners and administrators get here, so the answer carries runners_token.
      const view = await loadProjectViewById(deps, viewer, projectId);
      return presentOneProject(view, deps.config, { runnersToken: true });
    });
  }
}
