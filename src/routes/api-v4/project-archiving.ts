// v4's archive and unarchive: owners only, 201 with the project (the Project entity without what only
// masters see, as GitLab answers these), idempotent; the action is v3's.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { ARCHIVING, setArchivedFromRequest } from '../api-v3/project-archiving.ts';
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
  for (const [action, archived] of ARCHIVING) {
    app.post(`/projects/:id/${action}`, async (request, reply) => {
      const { viewer, projectId } = await setArchivedFromRequest(deps, request, archived);
      return reply.status(201).send(await presentProjectOnlyV4(deps, viewer, projectId));
    });
  }
}
