// Build triggers (GitLab 8.13's API::Triggers): masters list, show, create and delete a project's
// triggers; `POST /projects/:id/trigger/builds` needs no user at all, only a trigger's token, and runs a
// pipeline for a branch or tag with the variables the caller passes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { findProjectByIdParam, loadProject, type LoadedProject } from '../../http/loaders.ts';
import { apiError, forbidden, notFound, unauthorized } from '../../errors.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalTextHash, requestParams, requiredString } from '../../http/params.ts';
import { canAdminBuilds, triggerBelongsTo } from '../../policies/ci.ts';
import { createTrigger, deleteTrigger, triggerBuilds } from '../../services/ci/triggers.ts';
import {
  countTriggerList,
  findTriggerForToken,
  loadTriggerOr404,
  listTriggersPage,
} from '../../views/trigger-views.ts';
import { presentTrigger, presentTriggerRequest } from '../../presenters/api-v3/trigger.ts';

/** 404 for those who cannot read the project, 403 for those who may not manage its builds. */
async function loadBuildsAdministration(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!canAdminBuilds(project.access, project)) throw forbidden();
  return project;
}

function tokenParam(request: FastifyRequest): string {
  return String((request.params as Record<string, unknown>).token ?? '');
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/projects/:id/trigger/builds', { config: { public: true } }, async (request, reply) => {
    const params = requestParams(request);
    const ref = requiredString(params, 'ref');
    const token = requiredString(params, 'token');
    const record = await findProjectByIdParam(deps, (request.params as Record<string, unknown>).id);
    const trigger = await findTriggerForToken(deps, token);
    if (!record || !trigger) throw notFound();
    if (!triggerBelongsTo(trigger, record.project.id)) throw unauthorized();
    const variables = optionalTextHash(params, 'variables', {
      notHash: () => apiError(400, 'variables needs to be a hash'),
      notTexts: () => apiError(400, 'variables needs to be a map of key-valued strings'),
    });
    const created = await triggerBuilds(deps, record, trigger, ref, variables);
    return reply.status(201).send(presentTriggerRequest(created));
  });

  app.get('/projects/:id/triggers', async (request, reply) => {
    const project = await loadBuildsAdministration(deps, request);
    return paginate(
      request,
      reply,
      deps.config.externalUrl,
      () => countTriggerList(deps, project.project.id),
      (page) => listTriggersPage(deps, project.project.id, page),
    );
  });

  app.get('/projects/:id/triggers/:token', async (request) => {
    const project = await loadBuildsAdministration(deps, request);
    const trigger = await loadTriggerOr404(deps, project.project.id, tokenParam(request));
    return presentTrigger(trigger, trigger.last_used);
  });

  app.post('/projects/:id/triggers', async (request, reply) => {
    const project = await loadBuildsAdministration(deps, request);
    const trigger = await createTrigger(deps, project.project.id);
    return reply.status(201).send(presentTrigger(trigger, null));
  });

  app.delete('/projects/:id/triggers/:token', async (request) => {
    const project = await loadBuildsAdministration(deps, request);
    const trigger = await loadTriggerOr404(deps, project.project.id, tokenParam(request));
    const deleted = await deleteTrigger(deps, trigger);
    if (!deleted) throw notFound('Trigger');
    return presentTrigger(deleted, trigger.last_used);
  });
}
