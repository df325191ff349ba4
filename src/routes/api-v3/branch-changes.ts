// Creating and deleting branches (GitLab 8.13's POST and DELETE …/repository/branches): developers and
// up, as pushes under the same rules as `git push`. `:branch` may hold slashes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadWritableRepository } from '../../http/loaders.ts';
import { optionalString, requestParams, type Params } from '../../http/params.ts';
import { presentBranch, presentDeletedBranch } from '../../presenters/api-v3/branch.ts';
import { createBranch, deleteBranch } from '../../services/repository/branch-changes.ts';

type WildcardRequest = FastifyRequest<{ Params: { id: string; '*': string } }>;

/** The new branch's name and where it starts (v4 sends `branch`, read here as `branch_name`). */
export function branchCreation(params: Params): { name: string | undefined; ref: string | undefined } {
  return { name: optionalString(params, 'branch_name'), ref: optionalString(params, 'ref') };
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/projects/:id/repository/branches', async (request, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    const { name, ref } = branchCreation(requestParams(request));
    const created = await createBranch(deps, pusher, name, ref);
    return reply.code(201).send(presentBranch(created));
  });

  app.delete('/projects/:id/repository/branches/*', async (request: WildcardRequest) => {
    const pusher = await loadWritableRepository(deps, request);
    const name = request.params['*'];
    await deleteBranch(deps, pusher, name);
    return presentDeletedBranch(name);
  });
}
