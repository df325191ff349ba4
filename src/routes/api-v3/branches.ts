// Branches: list (sorted by name, not paginated), one branch (`:branch` may hold slashes, sent raw or as
// %2F), protect and unprotect (masters, idempotent). A name no branch could have is a 404 like any other.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden, routeNotFound } from '../../errors.ts';
import { loadProjectRepository } from '../../http/loaders.ts';
import { requestParams, toBoolean } from '../../http/params.ts';
import { canAdminProject } from '../../policies/access.ts';
import { protectBranch, unprotectBranch } from '../../services/repository/protected-branches.ts';
import { branchList, loadBranchOr404 } from '../../views/branch-views.ts';

type WildcardRequest = FastifyRequest<{ Params: { id: string; '*': string } }>;

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/repository/branches', async (request) => {
    return branchList(deps, await loadProjectRepository(deps, request));
  });

  app.get('/projects/:id/repository/branches/*', async (request: WildcardRequest) => {
    return loadBranchOr404(deps, await loadProjectRepository(deps, request), request.params['*']);
  });

  app.put('/projects/:id/repository/branches/*', async (request: WildcardRequest) => {
    const match = /^(.+)\/(protect|unprotect)$/s.exec(request.params['*']);
    if (!match) throw routeNotFound();
    const [, name, action] = match;
    const project = await loadProjectRepository(deps, request);
    if (!canAdminProject(project.access)) throw forbidden();
    if (action === 'protect') {
      const params = requestParams(request);
      await protectBranch(deps, project, name, {
        developersCanPush: toBoolean(params, 'developers_can_push'),
        developersCanMerge: toBoolean(params, 'developers_can_merge'),
      });
    } else {
      await unprotectBranch(deps, project, name);
    }
    return loadBranchOr404(deps, project, name);
  });
}
