// Project hooks: masters and owners of the project manage them (GitLab's admin_project); administrators
// also read Labrador's own delivery log (GET …/hooks/:hook_id/deliveries, POST …/resend).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadAdministeredProject, loadProject } from '../../http/loaders.ts';
import { requireAdmin } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalBoolean, pathId, requestParams, requiredString, type Params } from '../../http/params.ts';
import {
  createProjectHook,
  destroyProjectHook,
  updateProjectHook,
  type ProjectHookAttributes,
} from '../../services/hooks/project-hooks.ts';
import { countProjectHookList, loadProjectHookOr404, listProjectHooksPage } from '../../views/hook-views.ts';
import { presentProjectHook } from '../../presenters/api-v3/hooks.ts';
import { listHookDeliveries, resendHookDelivery } from './hook-deliveries.ts';

export function hookAttributes(params: Params): ProjectHookAttributes {
  return {
    push_events: optionalBoolean(params, 'push_events'),
    issues_events: optionalBoolean(params, 'issues_events'),
    merge_requests_events: optionalBoolean(params, 'merge_requests_events'),
    tag_push_events: optionalBoolean(params, 'tag_push_events'),
    note_events: optionalBoolean(params, 'note_events'),
    build_events: optionalBoolean(params, 'build_events'),
    pipeline_events: optionalBoolean(params, 'pipeline_events'),
    // SPEC writes `wiki_events`, GitLab 8.13 read `wiki_page_events`: both work, the latter wins.
    wiki_page_events: optionalBoolean(params, 'wiki_page_events') ?? optionalBoolean(params, 'wiki_events'),
    enable_ssl_verification: optionalBoolean(params, 'enable_ssl_verification'),
  };
}

export function hookIdParam(request: FastifyRequest): number | undefined {
  return pathId((request.params as Record<string, unknown>).hook_id);
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/hooks', async (request, reply) => {
    const project = await loadAdministeredProject(deps, request);
    return paginate(
      request,
      reply,
      deps.config.externalUrl,
      () => countProjectHookList(deps, project.project.id),
      async (page) => (await listProjectHooksPage(deps, project.project.id, page)).map(presentProjectHook),
    );
  });

  app.get('/projects/:id/hooks/:hook_id', async (request) => {
    const project = await loadAdministeredProject(deps, request);
    return presentProjectHook(await loadProjectHookOr404(deps, project.project.id, hookIdParam(request)));
  });

  app.post('/projects/:id/hooks', async (request, reply) => {
    const project = await loadAdministeredProject(deps, request);
    const params = requestParams(request);
    const url = requiredString(params, 'url', { passNul: true });
    const hook = await createProjectHook(deps, project.project.id, url, hookAttributes(params));
    return reply.status(201).send(presentProjectHook(hook));
  });

  app.put('/projects/:id/hooks/:hook_id', async (request) => {
    const project = await loadAdministeredProject(deps, request);
    // The hook is looked up before the url is checked, as GitLab did.
    const hook = await loadProjectHookOr404(deps, project.project.id, hookIdParam(request));
    const params = requestParams(request);
    const url = requiredString(params, 'url', { passNul: true });
    return presentProjectHook(await updateProjectHook(deps, hook, url, hookAttributes(params)));
  });

  app.delete('/projects/:id/hooks/:hook_id', async (request, reply) => {
    const project = await loadAdministeredProject(deps, request);
    const deleted = await destroyProjectHook(deps, project.project.id, hookIdParam(request));
    // Idempotent, as SPEC asks: the deleted hook, or `null` when there was none.
    if (!deleted) return reply.type('application/json').send('null');
    return presentProjectHook(deleted);
  });

  app.get('/projects/:id/hooks/:hook_id/deliveries', async (request, reply) => {
    requireAdmin(request);
    const project = await loadProject(deps, request);
    const hook = await loadProjectHookOr404(deps, project.project.id, hookIdParam(request));
    return listHookDeliveries(deps, request, reply, 'project', hook.id);
  });

  app.post('/projects/:id/hooks/:hook_id/deliveries/:delivery_id/resend', async (request, reply) => {
    requireAdmin(request);
    const project = await loadProject(deps, request);
    const hook = await loadProjectHookOr404(deps, project.project.id, hookIdParam(request));
    return resendHookDelivery(
      deps,
      reply,
      'project',
      hook.id,
      (request.params as Record<string, string>).delivery_id,
    );
  });
}
