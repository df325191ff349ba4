// POST /groups/:id/projects/:project_id: an administrator moves a project into a group (201 with the
// group). The group is found by id only and the project by integer id, as GitLab 8.13 did.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/auth.ts';
import { pathId } from '../../http/params.ts';
import { presentGroup } from '../../presenters/api-v3/group.ts';
import { transferProjectToGroup } from '../../services/projects/project-transfer.ts';

type TransferRequest = FastifyRequest<{ Params: { id: string; project_id: string } }>;

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/groups/:id/projects/:project_id', async (request: TransferRequest, reply) => {
    requireAdmin(request);
    const group = await transferProjectToGroup(
      deps,
      pathId(request.params.id),
      pathId(request.params.project_id),
    );
    return reply.code(201).send(presentGroup(group, deps.config.externalUrl));
  });
}
