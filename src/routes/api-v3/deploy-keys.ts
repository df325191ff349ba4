// Deploy keys (GitLab 8.13's lib/api/deploy_keys.rb): masters and owners manage a project's keys under
// both spellings, /projects/:id/keys (deprecated in 8.x) and /projects/:id/deploy_keys; administrators
// list every deploy key. Hidden projects answer 404, readable ones 403 to non-masters.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadAdministeredProject } from '../../http/loaders.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { notFound, recordNotFound } from '../../errors.ts';
import { optionalString, pathInteger, requestParams, type Params } from '../../http/params.ts';
import { addDeployKey, disableDeployKey, enableDeployKey } from '../../services/projects/deploy-keys.ts';
import { everyDeployKey, projectDeployKey, projectDeployKeys } from '../../views/deploy-key-views.ts';
import { presentKeyRecord, presentSSHKey } from '../../presenters/api-v3/key.ts';

/** The key's title and text; no required-parameter check (a missing one is the model's validation error). */
export function newDeployKey(params: Params) {
  return {
    title: optionalString(params, 'title', { passNul: true }),
    key: optionalString(params, 'key', { passNul: true }),
  };
}

export function keyIdParam(request: FastifyRequest): number {
  return pathInteger(request.params as Record<string, unknown>, 'key_id');
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/deploy_keys', async (request) => {
    requireAdmin(request);
    return (await everyDeployKey(deps)).map(presentSSHKey);
  });

  for (const spelling of ['keys', 'deploy_keys']) {
    const base = `/projects/:id/${spelling}`;

    app.get(base, async (request) => {
      const { project } = await loadAdministeredProject(deps, request);
      return (await projectDeployKeys(deps, project.id)).map(presentSSHKey);
    });

    app.get(`${base}/:key_id`, async (request) => {
      const { project } = await loadAdministeredProject(deps, request);
      const key = await projectDeployKey(deps, project.id, keyIdParam(request));
      if (!key) throw recordNotFound();
      return presentSSHKey(key);
    });

    app.post(base, async (request, reply) => {
      const { project } = await loadAdministeredProject(deps, request);
      const key = await addDeployKey(
        deps,
        requireViewer(request),
        project.id,
        newDeployKey(requestParams(request)),
      );
      return reply.status(201).send(presentSSHKey(key));
    });

    app.post(`${base}/:key_id/enable`, async (request, reply) => {
      const { project } = await loadAdministeredProject(deps, request);
      const key = await enableDeployKey(deps, requireViewer(request), project.id, keyIdParam(request));
      return reply.status(201).send(presentSSHKey(key));
    });

    app.delete(`${base}/:key_id/disable`, async (request) => {
      const { project } = await loadAdministeredProject(deps, request);
      const key = await disableDeployKey(deps, project.id, keyIdParam(request));
      if (!key) throw notFound('Deploy Key');
      return presentSSHKey(key);
    });

    // GitLab destroyed the key everywhere; here it leaves this project only, so a master of one project
    // cannot take a shared key away from another. The answer is still the key's record.
    app.delete(`${base}/:key_id`, async (request) => {
      const { project } = await loadAdministeredProject(deps, request);
      const key = await disableDeployKey(deps, project.id, keyIdParam(request));
      if (!key) throw recordNotFound();
      return presentKeyRecord(key);
    });
  }
}
