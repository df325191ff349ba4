// v4's repository upkeep of a project: POST /projects/:id/housekeeping (maintainers and up, 201; the gc
// runs after the answer) and GET /projects/:id/storage (administrators: where the repository lives;
// Labrador has one storage, `default`, and keeps repositories by namespace and project path).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/auth.ts';
import { loadAdministeredProject, loadProject } from '../../http/loaders.ts';
import { repositoryDiskPath, scheduleHousekeeping } from '../../services/repository/housekeeping.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/projects/:id/housekeeping', async (request, reply) => {
    const project = await loadAdministeredProject(deps, request);
    scheduleHousekeeping(deps, project);
    return reply.status(201).send();
  });

  app.get('/projects/:id/storage', async (request) => {
    requireAdmin(request);
    const project = await loadProject(deps, request);
    return {
      project_id: project.project.id,
      disk_path: repositoryDiskPath(deps, project),
      created_at: project.project.created_at,
      repository_storage: 'default',
    };
  });
}
