// v4's archive and unarchive: owners only, 201 with the project (the Project entity without what only
// masters see, as GitLab answers these), idempotent.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject } from '../../http/loaders.ts';
import { forbidden, notFound } from '../../errors.ts';
import { isProjectOwner } from '../../policies/access.ts';
import { setArchived } from '../../services/projects/project-archiving.ts';
import { loadProjectViewById } from '../../views/project-views.ts';
import { presentProjectV4 } from '../../presenters/api-v4/project.ts';
import type { UserRow } from '../../db/types.ts';

/** The Project entity of archive, unarchive, star and unstar (no runners_token). */
export async function presentProjectOnlyV4(deps: Deps, viewer: UserRow, projectId: number) {
  const view = await loadProjectViewById(deps, viewer, projectId, { forkSourceCounts: true });
  if (!view) throw notFound('Project');
  return presentProjectV4(view, deps.config);
}

export function register(app: FastifyInstance, deps: Deps): void {
  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    app.post(`/projects/:id/${action}`, async (request, reply) => {
      const viewer = requireViewer(request);
      const { project, access } = await loadProject(deps, request);
      if (!isProjectOwner(access)) throw forbidden();
      await setArchived(deps, project.id, archived);
      return reply.status(201).send(await presentProjectOnlyV4(deps, viewer, project.id));
    });
  }
}
