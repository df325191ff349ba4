// v4's branches (GitLab's lib/api/branches.rb): the list paginated and searchable, one branch, create
// with `branch` + `ref`, delete (204), delete the merged ones (202), and protect/unprotect, which today's
// GitLab still serves beside the protected branches API. Over v3's views and services.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadProjectRepository, loadWritableRepository, type LoadedProject } from '../../http/loaders.ts';
import { paginateLoaded } from '../../http/pagination.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import {
  createBranch,
  deleteBranch,
  deleteMergedBranches,
} from '../../services/repository/branch-changes.ts';
import {
  branchDetails,
  listBranchViews,
  loadBranchViewOr404,
  type BranchView,
} from '../../views/branch-views.ts';
import { presentBranch } from '../../presenters/api-v4/branch.ts';
import { branchCreation } from '../api-v3/branch-changes.ts';
import { changeBranchProtection, type WildcardRequest } from '../api-v3/branches.ts';
import { noContent, requireParams, v4Params, type Renames } from './conventions.ts';

const RENAMES: Renames = { branch: 'branch_name' };

/** GitLab's branch search: a substring, `^text` a prefix, `text$` a suffix. */
export function matchesSearch(name: string, search: string): boolean {
  const prefix = search.startsWith('^');
  const suffix = search.endsWith('$') && search.length > (prefix ? 1 : 0);
  const text = search.slice(prefix ? 1 : 0, suffix ? -1 : undefined);
  if (prefix && suffix) return name === text;
  if (prefix) return name.startsWith(text);
  if (suffix) return name.endsWith(text);
  return name.includes(text);
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const present = async (project: LoadedProject, views: BranchView[]) =>
    (await branchDetails(deps, project, views)).map((detail) => presentBranch(detail, project, baseUrl));

  app.get('/projects/:id/repository/branches', async (request, reply) => {
    const project = await loadProjectRepository(deps, request);
    const search = optionalString(requestParams(request), 'search');
    const views = (await listBranchViews(deps, project)).filter(
      (view) => search === undefined || matchesSearch(view.branch.name, search),
    );
    return present(project, paginateLoaded(request, reply, baseUrl, views));
  });

  app.get('/projects/:id/repository/branches/*', async (request: WildcardRequest) => {
    const project = await loadProjectRepository(deps, request);
    const [branch] = await present(project, [await loadBranchViewOr404(deps, project, request.params['*'])]);
    return branch;
  });

  app.put('/projects/:id/repository/branches/*', async (request: WildcardRequest) => {
    const { project, view } = await changeBranchProtection(deps, request);
    return (await present(project, [view]))[0];
  });

  app.post('/projects/:id/repository/branches', async (request, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    const params = v4Params(request, RENAMES);
    requireParams(params, 'branch', 'ref');
    const { name, ref } = branchCreation(params);
    const created = await createBranch(deps, pusher, name, ref);
    return reply.code(201).send((await present(pusher, [created]))[0]);
  });

  app.delete('/projects/:id/repository/branches/*', async (request: WildcardRequest, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    await deleteBranch(deps, pusher, request.params['*']);
    return noContent(reply);
  });

  app.delete('/projects/:id/repository/merged_branches', async (request, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    await deleteMergedBranches(deps, pusher);
    return reply.code(202).send({ message: '202 Accepted' });
  });
}
