// v4's PUT /projects/:id/transfer: an owner moves the project into a namespace (id or path) where they
// may create projects; 200 with the project as moved. The move itself is v3's (the group transfer's).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, loadTargetNamespace } from '../../http/loaders.ts';
import { presentString, requestParams } from '../../http/params.ts';
import { forbidden, paramsMissing } from '../../errors.ts';
import { isProjectOwner } from '../../policies/access.ts';
import { transferProject } from '../../services/projects/project-transfer.ts';
import { presentWrittenProject } from './projects.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.put('/projects/:id/transfer', async (request) => {
    const viewer = requireViewer(request);
    const namespace = presentString(requestParams(request), 'namespace');
    if (namespace === undefined) throw paramsMissing('namespace');
    const loaded = await loadProject(deps, request);
    if (!isProjectOwner(loaded.access)) throw forbidden();
    const target = await loadTargetNamespace(deps, viewer, namespace);
    const moved = await transferProject(deps, loaded, target);
    return presentWrittenProject(deps, viewer, moved.project.id);
  });
}
