// Branches: list (sorted by name, not paginated), one branch (`:branch` may hold slashes, sent raw or as
// %2F), protect and unprotect (masters, idempotent). A name no branch could have is a 404 like any other.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden, routeNotFound } from '../../errors.ts';
import { loadProjectRepository, type LoadedProject } from '../../http/loaders.ts';
import { requestParams, toBoolean } from '../../http/params.ts';
import { canAdminProject } from '../../policies/access.ts';
import { protectBranch, unprotectBranch } from '../../services/repository/protected-branches.ts';
import { listBranchViews, loadBranchViewOr404, type BranchView } from '../../views/branch-views.ts';
import { presentBranch } from '../../presenters/api-v3/branch.ts';

export type WildcardRequest = FastifyRequest<{ Params: { id: string; '*': string } }>;

/**
 * PUT …/branches/:branch/protect|unprotect, for v3 and v4 alike: masters, idempotent; the branch as it
 * is afterwards. Any other PUT under …/branches/ is an unknown route.
 */
export async function changeBranchProtection(
  deps: Deps,
  request: WildcardRequest,
): Promise<{ project: LoadedProject; view: BranchView }> {
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
  return { project, view: await loadBranchViewOr404(deps, project, name) };
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/repository/branches', async (request) => {
    return (await listBranchViews(deps, await loadProjectRepository(deps, request))).map(presentBranch);
  });

  app.get('/projects/:id/repository/branches/*', async (request: WildcardRequest) => {
    const project = await loadProjectRepository(deps, request);
    return presentBranch(await loadBranchViewOr404(deps, project, request.params['*']));
  });

  app.put('/projects/:id/repository/branches/*', async (request: WildcardRequest) => {
    return presentBranch((await changeBranchProtection(deps, request)).view);
  });
}
