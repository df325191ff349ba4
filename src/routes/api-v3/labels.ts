// Labels (GitLab 8.13's lib/api/labels.rb with 8.13.4's checks): the project's labels, unpaginated and
// A→Z; create, edit and delete by name for reporters and up (409 on an existing name).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { presentString, requestParams, requiredString } from '../../http/params.ts';
import { forbidden } from '../../errors.ts';
import { canAdminLabels } from '../../policies/issues.ts';
import { createLabel, destroyLabel, editLabel } from '../../services/issues/labels.ts';
import { loadLabelView, projectLabelList } from '../../views/label-views.ts';
import { presentLabel, presentLabelRecord } from '../../presenters/api-v3/issue.ts';

function administered(loaded: LoadedProject): LoadedProject {
  if (!canAdminLabels(loaded.access, loaded)) throw forbidden();
  return loaded;
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/labels', async (request) => {
    const loaded = await loadProject(deps, request);
    return (await projectLabelList(deps, requireViewer(request), loaded)).map(presentLabel);
  });

  app.post('/projects/:id/labels', async (request, reply) => {
    const loaded = administered(await loadProject(deps, request));
    const params = requestParams(request);
    const name = requiredString(params, 'name');
    const color = requiredString(params, 'color');
    const label = await createLabel(deps, loaded.project.id, {
      name,
      color,
      description: presentString(params, 'description'),
    });
    return reply
      .status(201)
      .send(presentLabel(await loadLabelView(deps, requireViewer(request), loaded, label)));
  });

  app.put('/projects/:id/labels', async (request) => {
    const loaded = administered(await loadProject(deps, request));
    const params = requestParams(request);
    const name = requiredString(params, 'name');
    const label = await editLabel(deps, loaded.project.id, name, {
      newName: presentString(params, 'new_name'),
      color: presentString(params, 'color'),
      description: presentString(params, 'description'),
    });
    return presentLabel(await loadLabelView(deps, requireViewer(request), loaded, label));
  });

  app.delete('/projects/:id/labels', async (request) => {
    const loaded = administered(await loadProject(deps, request));
    const name = requiredString(requestParams(request), 'name');
    return presentLabelRecord(await destroyLabel(deps, loaded.project.id, name));
  });
}
