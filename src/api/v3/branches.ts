// Branches (reference/api-v3.md §7.4, README row 33): list (sorted by name, not paginated), one branch
// (`:branch` may hold slashes, sent raw or as %2F), protect and unprotect (master+, idempotent).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { apiError, forbidden, notFound } from '../../http/errors.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { requestParams, type Params } from '../../http/params.ts';
import { canAdminProject } from '../../policies/access.ts';
import { canDownloadCode } from '../../policies/git-access.ts';
import { presentBranch } from '../../presenters/branch.ts';
import {
  projectBranch,
  projectBranches,
  protectBranch,
  unprotectBranch,
  type BranchWithProtection,
} from '../../services/branches.ts';

type WildcardRequest = FastifyRequest<{ Params: { id: string; '*': string } }>;

/** Grape's to_boolean: a recognised word, or undefined for anything else (which changes nothing). */
function toBoolean(params: Params, name: string): boolean | undefined {
  const value = params[name];
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== 'string') return undefined;
  if (/^(true|t|yes|y|1|on)$/i.test(value)) return true;
  if (/^(false|f|no|n|0|off)$/i.test(value)) return false;
  return undefined;
}

async function readableProject(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!canDownloadCode(project.access, project)) throw forbidden();
  return project;
}

async function existingBranch(
  deps: Deps,
  project: LoadedProject,
  name: string,
): Promise<BranchWithProtection> {
  const found = name === '' ? undefined : await projectBranch(deps, project, name);
  if (!found) throw notFound('Branch');
  return found;
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/repository/branches', async (request) => {
    const project = await readableProject(deps, request);
    const branches = await projectBranches(deps, project);
    return branches.map(({ branch, protection }) => presentBranch(branch, protection));
  });

  app.get('/projects/:id/repository/branches/*', async (request: WildcardRequest) => {
    const project = await readableProject(deps, request);
    const { branch, protection } = await existingBranch(deps, project, request.params['*']);
    return presentBranch(branch, protection);
  });

  app.put('/projects/:id/repository/branches/*', async (request: WildcardRequest, reply) => {
    const match = /^(.+)\/(protect|unprotect)$/s.exec(request.params['*']);
    if (!match) return reply.code(404).send({ error: '404 Not Found' });
    const [, name, action] = match;
    const project = await readableProject(deps, request);
    if (!canAdminProject(project.access)) throw forbidden();
    await existingBranch(deps, project, name);
    if (action === 'protect') {
      const params = requestParams(request);
      await protectBranch(deps, project, name, {
        developersCanPush: toBoolean(params, 'developers_can_push'),
        developersCanMerge: toBoolean(params, 'developers_can_merge'),
      });
    } else {
      await unprotectBranch(deps, project, name);
    }
    const updated = await projectBranch(deps, project, name);
    if (!updated) throw apiError(404, '404 Branch Not Found');
    return presentBranch(updated.branch, updated.protection);
  });
}
