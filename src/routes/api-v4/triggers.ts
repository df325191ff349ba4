// v4's pipeline triggers (lib/api/ci/triggers.rb): masters list, show, create (with a description; the
// caller owns it), change the description of, take ownership of and delete (204) a project's triggers,
// by id; `POST /projects/:id/trigger/pipeline` needs only a trigger's token and runs a pipeline for a
// ref with the given variables (source `trigger`, as the trigger's owner), answering the pipeline.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { apiError, forbidden, notFound, unauthorized } from '../../errors.ts';
import { requireViewer } from '../../http/auth.ts';
import { findProjectByIdParam, loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalString, optionalTextHash, pathInteger, requestParams } from '../../http/params.ts';
import { canAdminBuilds, triggerBelongsTo } from '../../policies/ci.ts';
import { changeTrigger, createTrigger, deleteTrigger, triggerBuilds } from '../../services/ci/triggers.ts';
import {
  countTriggerList,
  findTriggerForToken,
  listTriggersWithOwners,
  loadTriggerByIdOr404,
} from '../../views/trigger-views.ts';
import { loadPipelineOr404, pipelinesWithUsers } from '../../views/pipeline-views.ts';
import { presentTriggerV4 } from '../../presenters/api-v4/trigger.ts';
import { presentPipeline } from '../../presenters/api-v4/pipeline.ts';
import { noContent, requireParams } from './conventions.ts';

async function loadAdministered(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  requireViewer(request);
  const project = await loadProject(deps, request);
  if (!canAdminBuilds(project.access, project)) throw forbidden();
  return project;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const triggerOf = async (request: FastifyRequest, project: LoadedProject) =>
    loadTriggerByIdOr404(deps, project.project.id, pathInteger(requestParams(request), 'trigger_id'));
  const present = (
    request: FastifyRequest,
    { trigger, owner }: Awaited<ReturnType<typeof loadTriggerByIdOr404>>,
    lastUsed = trigger.last_used,
  ) => presentTriggerV4(trigger, lastUsed, owner, requireViewer(request).id, baseUrl);

  app.post('/projects/:id/trigger/pipeline', { config: { public: true } }, async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'token', 'ref');
    const record = await findProjectByIdParam(deps, (request.params as Record<string, unknown>).id);
    const trigger = await findTriggerForToken(deps, optionalString(params, 'token')!);
    if (!record || !trigger) throw notFound();
    if (!triggerBelongsTo(trigger, record.project.id)) throw unauthorized();
    const variables = optionalTextHash(params, 'variables', {
      notHash: () => apiError(400, 'variables needs to be a hash'),
      notTexts: () => apiError(400, 'variables needs to be a map of key-valued strings'),
    });
    const created = await triggerBuilds(deps, record, trigger, optionalString(params, 'ref')!, variables);
    const pipeline = await loadPipelineOr404(deps, record, created.pipeline_id!);
    const [shown] = await pipelinesWithUsers(deps, [pipeline]);
    return reply.status(201).send(presentPipeline(pipeline, record, shown!.user, baseUrl));
  });

  app.get('/projects/:id/triggers', async (request, reply) => {
    const project = await loadAdministered(deps, request);
    const rows = await paginate(
      request,
      reply,
      baseUrl,
      () => countTriggerList(deps, project.project.id),
      (page) => listTriggersWithOwners(deps, project.project.id, page),
    );
    return rows.map((row) => present(request, row));
  });

  app.get('/projects/:id/triggers/:trigger_id', async (request) => {
    const project = await loadAdministered(deps, request);
    return present(request, await triggerOf(request, project));
  });

  app.post('/projects/:id/triggers', async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'description');
    const project = await loadAdministered(deps, request);
    const trigger = await createTrigger(deps, project.project.id, {
      ownerId: requireViewer(request).id,
      description: optionalString(params, 'description')!,
    });
    const loaded = await loadTriggerByIdOr404(deps, project.project.id, trigger.id);
    return reply.status(201).send(present(request, loaded));
  });

  app.put('/projects/:id/triggers/:trigger_id', async (request) => {
    const project = await loadAdministered(deps, request);
    const { trigger } = await triggerOf(request, project);
    const description = optionalString(requestParams(request), 'description');
    await changeTrigger(deps, trigger, description === undefined ? {} : { description });
    return present(request, await loadTriggerByIdOr404(deps, project.project.id, trigger.id));
  });

  app.post('/projects/:id/triggers/:trigger_id/take_ownership', async (request, reply) => {
    const project = await loadAdministered(deps, request);
    const { trigger } = await triggerOf(request, project);
    await changeTrigger(deps, trigger, { owner_id: requireViewer(request).id });
    return reply
      .status(201)
      .send(present(request, await loadTriggerByIdOr404(deps, project.project.id, trigger.id)));
  });

  app.delete('/projects/:id/triggers/:trigger_id', async (request, reply) => {
    const project = await loadAdministered(deps, request);
    const { trigger } = await triggerOf(request, project);
    if (!(await deleteTrigger(deps, trigger))) throw notFound('Trigger');
    return noContent(reply);
  });
}
