// A project's secret variables (GitLab 8.13's Variables API): masters and owners list, read, add, change
// and remove them, while builds are on (admin_build); others who can see the project get 403.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden, paramsMissing } from '../../errors.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { canAdminBuilds } from '../../policies/ci.ts';
import { createVariable, destroyVariable, updateVariable } from '../../services/ci/ci-variables.ts';
import { countVariableList, loadVariableOr404, listVariablesPage } from '../../views/ci-variable-views.ts';
import { presentVariable } from '../../presenters/api-v3/ci-variable.ts';

/** 401 without a user, 404 for a project the caller cannot see, 403 without admin_build. */
async function loadProjectForVariables(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  requireViewer(request);
  const project = await loadProject(deps, request);
  if (!canAdminBuilds(project.access, project)) throw forbidden();
  return project;
}

function keyParam(request: FastifyRequest): string {
  return optionalString(requestParams(request), 'key') ?? '';
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/variables', async (request, reply) => {
    const project = await loadProjectForVariables(deps, request);
    return paginate(
      request,
      reply,
      deps.config.externalUrl,
      () => countVariableList(deps, project.project.id),
      (page) => listVariablesPage(deps, project.project.id, page),
    );
  });

  app.get('/projects/:id/variables/:key', async (request) => {
    const project = await loadProjectForVariables(deps, request);
    return presentVariable(await loadVariableOr404(deps, project.project.id, keyParam(request)));
  });

  app.post('/projects/:id/variables', async (request, reply) => {
    const project = await loadProjectForVariables(deps, request);
    const params = requestParams(request);
    // Grape's `requires`: present is enough, a blank key meets the model's validations instead.
    const key = optionalString(params, 'key');
    const value = optionalString(params, 'value');
    const missing = [key === undefined && 'key', value === undefined && 'value'].filter(Boolean) as string[];
    if (missing.length > 0) throw paramsMissing(...missing);
    const variable = await createVariable(deps, project.project.id, key!, value!);
    return reply.code(201).send(presentVariable(variable));
  });

  app.put('/projects/:id/variables/:key', async (request) => {
    const project = await loadProjectForVariables(deps, request);
    const variable = await loadVariableOr404(deps, project.project.id, keyParam(request));
    const value = optionalString(requestParams(request), 'value');
    return presentVariable(await updateVariable(deps, variable, value));
  });

  app.delete('/projects/:id/variables/:key', async (request) => {
    const project = await loadProjectForVariables(deps, request);
    const variable = await loadVariableOr404(deps, project.project.id, keyParam(request));
    await destroyVariable(deps, variable);
    return presentVariable(variable);
  });
}
