// v4's forks: POST /projects/:id/fork (into `namespace_id`, `namespace_path` or the deprecated
// `namespace`, else the caller's own; optional `name` and `path`), 201 Project; GET /projects/:id/forks,
// the forks the caller may see, as GET /projects lists them.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, loadTargetNamespace } from '../../http/loaders.ts';
import { optionalInteger, presentString } from '../../http/params.ts';
import { forkProject } from '../../services/projects/forks.ts';
import { presentProjectListV4, presentWrittenProject, projectListQuery, projectParams } from './projects.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/projects/:id/fork', async (request, reply) => {
    const viewer = requireViewer(request);
    const source = await loadProject(deps, request);
    const params = projectParams(request);
    const namespaceId = optionalInteger(params, 'namespace_id');
    const given =
      namespaceId !== undefined
        ? String(namespaceId)
        : (presentString(params, 'namespace_path') ?? presentString(params, 'namespace'));
    const target = await loadTargetNamespace(deps, viewer, given);
    const naming = { name: presentString(params, 'name'), path: presentString(params, 'path') };
    const forkId = await forkProject(deps, viewer, source, source.access, target, naming);
    return reply.status(201).send(await presentWrittenProject(deps, viewer, forkId));
  });

  app.get('/projects/:id/forks', { config: { public: true } }, async (request, reply) => {
    const { project } = await loadProject(deps, request);
    const params = projectParams(request);
    const query = projectListQuery(request.viewer, params, { forkedFromId: project.id });
    return presentProjectListV4(deps, request, reply, params, query);
  });
}
