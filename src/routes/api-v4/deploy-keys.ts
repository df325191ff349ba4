// v4's deploy keys (lib/api/deploy_keys.rb): a project's keys (masters and owners; paginated), add (201;
// an existing deploy key the caller can reach is enabled instead), retitle, enable, remove from the
// project (204), and every deploy key for administrators. Writable deploy keys are not kept: can_push
// true is refused, so no key seems able to push when it cannot.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadAdministeredProject } from '../../http/loaders.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { paginateLoaded } from '../../http/pagination.ts';
import { optionalBoolean, optionalString, requestParams, type Params } from '../../http/params.ts';
import { notFound, paramValueInvalid } from '../../errors.ts';
import {
  addDeployKey,
  disableDeployKey,
  enableDeployKey,
  retitleDeployKey,
} from '../../services/projects/deploy-keys.ts';
import { everyDeployKey, projectDeployKey, projectDeployKeys } from '../../views/deploy-key-views.ts';
import { presentDeployKey, presentProjectDeployKey } from '../../presenters/api-v4/deploy-key.ts';
import { keyIdParam, newDeployKey } from '../api-v3/deploy-keys.ts';
import { noContent, requireParams } from './conventions.ts';

function refuseWritable(params: Params): void {
  if (optionalBoolean(params, 'can_push') === true) throw paramValueInvalid('can_push');
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const keyNotFound = () => notFound('Deploy Key');

  app.get('/deploy_keys', async (request, reply) => {
    requireAdmin(request);
    return paginateLoaded(request, reply, baseUrl, await everyDeployKey(deps)).map(presentDeployKey);
  });

  app.get('/projects/:id/deploy_keys', async (request, reply) => {
    const { project } = await loadAdministeredProject(deps, request);
    const keys = await projectDeployKeys(deps, project.id);
    return paginateLoaded(request, reply, baseUrl, keys).map(presentProjectDeployKey);
  });

  app.get('/projects/:id/deploy_keys/:key_id', async (request) => {
    const { project } = await loadAdministeredProject(deps, request);
    const key = await projectDeployKey(deps, project.id, keyIdParam(request));
    if (!key) throw keyNotFound();
    return presentProjectDeployKey(key);
  });

  app.post('/projects/:id/deploy_keys', async (request, reply) => {
    const { project } = await loadAdministeredProject(deps, request);
    const params = requestParams(request);
    requireParams(params, 'key', 'title');
    refuseWritable(params);
    const key = await addDeployKey(deps, requireViewer(request), project.id, newDeployKey(params));
    return reply.status(201).send(presentProjectDeployKey(key));
  });

  app.put('/projects/:id/deploy_keys/:key_id', async (request) => {
    const { project } = await loadAdministeredProject(deps, request);
    const params = requestParams(request);
    refuseWritable(params);
    const title = optionalString(params, 'title', { passNul: true });
    const key = await retitleDeployKey(deps, project.id, keyIdParam(request), title);
    if (!key) throw keyNotFound();
    return presentProjectDeployKey(key);
  });

  app.post('/projects/:id/deploy_keys/:key_id/enable', async (request, reply) => {
    const { project } = await loadAdministeredProject(deps, request);
    const key = await enableDeployKey(deps, requireViewer(request), project.id, keyIdParam(request));
    return reply.status(201).send(presentDeployKey(key));
  });

  app.delete('/projects/:id/deploy_keys/:key_id', async (request, reply) => {
    const { project } = await loadAdministeredProject(deps, request);
    if (!(await disableDeployKey(deps, project.id, keyIdParam(request)))) throw keyNotFound();
    return noContent(reply);
  });
}
