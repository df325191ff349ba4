// v4's protected branches API (lib/api/protected_branches.rb), masters and owners only: list, one rule,
// protect a name or a `*` pattern (409 when a rule has that name), unprotect (204). The same rules the v3
// protect/unprotect routes write and every push obeys. Labrador's rule stores whether developers may
// push and merge, so the access levels it takes are 30 (developers) and 40 (masters, the default); "no
// one" (0) and admins-only (60), force pushes and code owner approval are refused as invalid values
// rather than stored and not enforced.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadAdministeredProject } from '../../http/loaders.ts';
import { paginateLoaded } from '../../http/pagination.ts';
import {
  optionalBoolean,
  optionalInteger,
  requestParams,
  requiredString,
  type Params,
} from '../../http/params.ts';
import { paramValueInvalid } from '../../errors.ts';
import { AccessLevel } from '../../domain/types.ts';
import { listProtectedBranchRules, loadProtectedBranchRuleOr404 } from '../../views/branch-views.ts';
import {
  addProtectedBranchRule,
  removeProtectedBranchRule,
} from '../../services/repository/protected-branches.ts';
import { presentProtectedBranch } from '../../presenters/api-v4/protected-branch.ts';
import { noContent, requireParams } from './conventions.ts';

type NameRequest = FastifyRequest<{ Params: { id: string; '*': string } }>;

/** Whether developers get the right: 30 yes, 40 (or nothing) no, any other level a 400. */
function developersMay(params: Params, name: string): boolean {
  const level = optionalInteger(params, name) ?? AccessLevel.Master;
  if (level !== AccessLevel.Developer && level !== AccessLevel.Master) throw paramValueInvalid(name);
  return level === AccessLevel.Developer;
}

function refuseUnsupported(params: Params): void {
  for (const flag of ['allow_force_push', 'code_owner_approval_required']) {
    if (optionalBoolean(params, flag) === true) throw paramValueInvalid(flag);
  }
  const unprotect = optionalInteger(params, 'unprotect_access_level');
  if (unprotect !== undefined && unprotect !== AccessLevel.Master)
    throw paramValueInvalid('unprotect_access_level');
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/protected_branches', async (request, reply) => {
    const { project } = await loadAdministeredProject(deps, request);
    const rules = await listProtectedBranchRules(deps, project.id);
    return paginateLoaded(request, reply, deps.config.externalUrl, rules).map(presentProtectedBranch);
  });

  app.get('/projects/:id/protected_branches/*', async (request: NameRequest) => {
    const { project } = await loadAdministeredProject(deps, request);
    return presentProtectedBranch(await loadProtectedBranchRuleOr404(deps, project.id, request.params['*']));
  });

  app.post('/projects/:id/protected_branches', async (request, reply) => {
    const record = await loadAdministeredProject(deps, request);
    const params = requestParams(request);
    requireParams(params, 'name');
    const name = requiredString(params, 'name');
    const flags = {
      developersCanPush: developersMay(params, 'push_access_level'),
      developersCanMerge: developersMay(params, 'merge_access_level'),
    };
    refuseUnsupported(params);
    const rule = await addProtectedBranchRule(deps, record, name, flags);
    return reply.code(201).send(presentProtectedBranch(rule));
  });

  app.delete('/projects/:id/protected_branches/*', async (request: NameRequest, reply) => {
    const record = await loadAdministeredProject(deps, request);
    await removeProtectedBranchRule(deps, record, request.params['*']);
    return noContent(reply);
  });
}
