// v4's project hooks (lib/api/project_hooks.rb), masters and owners: list (paginated), one, add (201),
// edit, delete (204; 404 when there is none). v4's `job_events` is v3's `build_events`, one rename; v4
// also sets `confidential_issues_events` and `deployment_events`, which Labrador stores and delivers. Accepted and not kept:
// `token`, `push_events_branch_filter`, `confidential_note_events`,
// `releases_events` (Labrador sends no such events, nor an X-Gitlab-Token). Payloads are the same as v3's.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadAdministeredProject } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalBoolean, requiredString, type Params } from '../../http/params.ts';
import { recordNotFound } from '../../errors.ts';
import {
  createProjectHook,
  destroyProjectHook,
  updateProjectHook,
} from '../../services/hooks/project-hooks.ts';
import { countProjectHookList, listProjectHooksPage, loadProjectHookOr404 } from '../../views/hook-views.ts';
import { presentProjectHook } from '../../presenters/api-v4/hook.ts';
import { hookAttributes, hookIdParam } from '../api-v3/project-hooks.ts';
import { noContent, requireParams, v4Params, type Renames } from './conventions.ts';

const RENAMES: Renames = { job_events: 'build_events' };

function v4HookAttributes(params: Params) {
  return {
    ...hookAttributes(params),
    confidential_issues_events: optionalBoolean(params, 'confidential_issues_events'),
    deployment_events: optionalBoolean(params, 'deployment_events'),
  };
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/hooks', async (request, reply) => {
    const { project } = await loadAdministeredProject(deps, request);
    return paginate(
      request,
      reply,
      deps.config.externalUrl,
      () => countProjectHookList(deps, project.id),
      async (page) => (await listProjectHooksPage(deps, project.id, page)).map(presentProjectHook),
    );
  });

  app.get('/projects/:id/hooks/:hook_id', async (request) => {
    const { project } = await loadAdministeredProject(deps, request);
    return presentProjectHook(await loadProjectHookOr404(deps, project.id, hookIdParam(request)));
  });

  app.post('/projects/:id/hooks', async (request, reply) => {
    const { project } = await loadAdministeredProject(deps, request);
    const params = v4Params(request, RENAMES);
    requireParams(params, 'url');
    const url = requiredString(params, 'url', { passNul: true });
    const hook = await createProjectHook(deps, project.id, url, v4HookAttributes(params));
    return reply.status(201).send(presentProjectHook(hook));
  });

  app.put('/projects/:id/hooks/:hook_id', async (request) => {
    const { project } = await loadAdministeredProject(deps, request);
    const hook = await loadProjectHookOr404(deps, project.id, hookIdParam(request));
    const params = v4Params(request, RENAMES);
    const url = params.url === undefined ? hook.url : requiredString(params, 'url', { passNul: true });
    return presentProjectHook(await updateProjectHook(deps, hook, url, v4HookAttributes(params)));
  });

  app.delete('/projects/:id/hooks/:hook_id', async (request, reply) => {
    const { project } = await loadAdministeredProject(deps, request);
    if (!(await destroyProjectHook(deps, project.id, hookIdParam(request)))) throw recordNotFound();
    return noContent(reply);
  });
}
