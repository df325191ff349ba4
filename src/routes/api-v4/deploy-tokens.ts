// v4's deploy tokens (lib/api/deploy_tokens.rb): every token for administrators (GET /deploy_tokens), a
// project's (its masters and owners) and a group's (its masters and owners): list (`active`), create
// (201, DeployTokenWithToken: the secret shown once), one, delete (204). A token clones over HTTP with
// its username (routes/git-http/auth.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { loadAdministeredProject, loadGroup } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import {
  optionalBoolean,
  optionalString,
  optionalStringList,
  optionalTimestamp,
  pathId,
  requestParams,
} from '../../http/params.ts';
import { forbidden, paramValueInvalid, recordNotFound } from '../../errors.ts';
import type { DeployTokenHolder } from '../../db/repositories/deploy-tokens.ts';
import { AccessLevel } from '../../domain/types.ts';
import { isDeployTokenScope } from '../../policies/deploy-tokens.ts';
import { createDeployToken, destroyDeployToken } from '../../services/projects/deploy-tokens.ts';
import { deployTokenList, deployTokenView, findDeployTokenView } from '../../views/deploy-token-views.ts';
import { presentDeployToken, presentDeployTokenWithToken } from '../../presenters/api-v4/deploy-token.ts';
import { noContent, requireParams } from './conventions.ts';

type Holder = Exclude<DeployTokenHolder, 'all'>;

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  const projectHolder = async (request: FastifyRequest): Promise<Holder> => {
    const { project } = await loadAdministeredProject(deps, request);
    return { projectId: project.id };
  };
  // GitLab lets a group's maintainers manage its deploy tokens.
  const groupHolder = async (request: FastifyRequest): Promise<Holder> => {
    const { group, access } = await loadGroup(deps, request);
    if (access.level < AccessLevel.Master) throw forbidden();
    return { groupId: group.id };
  };
  const tokenId = (request: FastifyRequest) => {
    const id = pathId((request.params as Record<string, unknown>).token_id);
    if (id === undefined) throw recordNotFound();
    return id;
  };

  const list = async (request: FastifyRequest, reply: FastifyReply, holder: DeployTokenHolder) => {
    const active = optionalBoolean(requestParams(request), 'active') === true;
    const { count, page } = deployTokenList(deps, holder, active);
    return (await paginate(request, reply, baseUrl, count, page)).map(presentDeployToken);
  };

  const create = async (request: FastifyRequest, reply: FastifyReply, holder: Holder) => {
    const params = requestParams(request);
    requireParams(params, 'name', 'scopes');
    const scopes = optionalStringList(params, 'scopes')!
      .flatMap((item) => item.split(','))
      .map((s) => s.trim());
    if (scopes.some((scope) => !isDeployTokenScope(scope))) throw paramValueInvalid('scopes');
    const expiresAt = optionalTimestamp(params, 'expires_at');
    const made = await createDeployToken(deps, holder, requireViewer(request).id, {
      name: optionalString(params, 'name')!,
      scopes,
      expiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString(),
      username: optionalString(params, 'username') || null,
    });
    return reply.status(201).send(presentDeployTokenWithToken(deployTokenView(made.row), made.token));
  };

  const show = async (request: FastifyRequest, holder: Holder) => {
    const view = await findDeployTokenView(deps, holder, tokenId(request));
    if (!view) throw recordNotFound();
    return presentDeployToken(view);
  };

  const destroy = async (request: FastifyRequest, reply: FastifyReply, holder: Holder) => {
    const id = tokenId(request);
    if (!(await destroyDeployToken(deps, holder, id))) throw recordNotFound();
    return noContent(reply);
  };

  app.get('/deploy_tokens', async (request, reply) => {
    requireAdmin(request);
    return list(request, reply, 'all');
  });

  for (const [resource, holderOf] of [
    ['projects', projectHolder],
    ['groups', groupHolder],
  ] as const) {
    app.get(`/${resource}/:id/deploy_tokens`, async (request, reply) =>
      list(request, reply, await holderOf(request)),
    );
    app.post(`/${resource}/:id/deploy_tokens`, async (request, reply) =>
      create(request, reply, await holderOf(request)),
    );
    app.get(`/${resource}/:id/deploy_tokens/:token_id`, async (request) =>
      show(request, await holderOf(request)),
    );
    app.delete(`/${resource}/:id/deploy_tokens/:token_id`, async (request, reply) =>
      destroy(request, reply, await holderOf(request)),
    );
  }
}
