// v4's project labels (lib/api/labels.rb): the list (A→Z, paginated, `search`, counts with
// `with_counts`), one label by id or name, create (201; name, color, description, priority), edit and
// delete by `:label_id` (an id or a name; the older `PUT`/`DELETE /labels` with `name` or `label_id` in
// the parameters too), and subscribe/unsubscribe (201 with the label, 304 when nothing changes).
// Creating, editing and deleting need v3's rule (reporters and up). The list, one label and the
// subscriptions include the group's labels (`include_ancestor_groups`, default true); edits and deletes
// reach only the project's own.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginateLoaded } from '../../http/pagination.ts';
import {
  optionalBoolean,
  optionalInteger,
  optionalString,
  presentString,
  requestParams,
  type Params,
} from '../../http/params.ts';
import { forbidden, notFound, paramsMissing } from '../../errors.ts';
import { canAdminLabels } from '../../policies/issues.ts';
import {
  changeLabelSubscription,
  createLabel,
  destroyLabel,
  editLabel,
} from '../../services/issues/labels.ts';
import { findLabelByIdOrTitle, projectLabelListForViewer } from '../../views/label-views.ts';
import { presentLabelV4 } from '../../presenters/api-v4/label.ts';
import type { LabelRow } from '../../db/types.ts';
import { noContent, requireParams } from './conventions.ts';

function administered(loaded: LoadedProject): LoadedProject {
  if (!canAdminLabels(loaded.access, loaded)) throw forbidden();
  return loaded;
}

/** `priority`: an integer, or null/blank to remove it; undefined when not sent. */
function priorityParam(params: Params): number | null | undefined {
  if (params.priority === null || params.priority === '') return null;
  return optionalInteger(params, 'priority');
}

/** The label a path's `:label_id` names, or the `label_id`/`name` parameter of the older routes. */
async function loadLabel(
  deps: Deps,
  request: FastifyRequest,
  loaded: LoadedProject,
  withGroupLabels = false,
): Promise<LabelRow> {
  const params = requestParams(request);
  const named = (request.params as Params).label_id ?? params.label_id ?? params.name;
  if (named === undefined || named === '') throw paramsMissing('label_id', 'name');
  const label = await findLabelByIdOrTitle(deps, loaded.project.id, String(named), withGroupLabels);
  if (!label) throw notFound('Label');
  return label;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const present = async (request: FastifyRequest, loaded: LoadedProject, label: LabelRow) => {
    const withCounts = optionalBoolean(requestParams(request), 'with_counts') === true;
    const [view] = await projectLabelListForViewer(deps, request.viewer, loaded, [label], withCounts);
    return presentLabelV4(view!, withCounts);
  };

  app.get('/projects/:id/labels', async (request, reply) => {
    const loaded = await loadProject(deps, request);
    const params = requestParams(request);
    const withCounts = optionalBoolean(params, 'with_counts') === true;
    const search = optionalString(params, 'search')?.toLowerCase();
    const withGroupLabels = optionalBoolean(params, 'include_ancestor_groups') !== false;
    const views = (
      await projectLabelListForViewer(deps, request.viewer, loaded, undefined, withCounts, withGroupLabels)
    ).filter((view) => search === undefined || view.label.title.toLowerCase().includes(search));
    return paginateLoaded(request, reply, deps.config.externalUrl, views).map((view) =>
      presentLabelV4(view, withCounts),
    );
  });

  app.get('/projects/:id/labels/:label_id', async (request) => {
    const loaded = await loadProject(deps, request);
    const withGroupLabels = optionalBoolean(requestParams(request), 'include_ancestor_groups') !== false;
    return present(request, loaded, await loadLabel(deps, request, loaded, withGroupLabels));
  });

  app.post('/projects/:id/labels', async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'name', 'color');
    const loaded = administered(await loadProject(deps, request));
    const label = await createLabel(deps, loaded.project.id, {
      name: String(params.name),
      color: String(params.color),
      description: presentString(params, 'description'),
      priority: priorityParam(params),
    });
    return reply.status(201).send(await present(request, loaded, label));
  });

  const edit = async (request: FastifyRequest) => {
    const loaded = administered(await loadProject(deps, request));
    const label = await loadLabel(deps, request, loaded);
    const params = requestParams(request);
    const edited = await editLabel(deps, loaded.project.id, label.title, {
      newName: presentString(params, 'new_name'),
      color: presentString(params, 'color'),
      description: presentString(params, 'description'),
      priority: priorityParam(params),
    });
    return present(request, loaded, edited);
  };
  app.put('/projects/:id/labels/:label_id', edit);
  app.put('/projects/:id/labels', edit);

  const destroy = async (request: FastifyRequest, reply: Parameters<typeof noContent>[0]) => {
    const loaded = administered(await loadProject(deps, request));
    const label = await loadLabel(deps, request, loaded);
    await destroyLabel(deps, loaded.project.id, label.title);
    return noContent(reply);
  };
  app.delete('/projects/:id/labels/:label_id', destroy);
  app.delete('/projects/:id/labels', destroy);

  for (const [action, subscribe] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const) {
    app.post(`/projects/:id/labels/:label_id/${action}`, async (request, reply) => {
      const viewer = requireViewer(request);
      const loaded = await loadProject(deps, request);
      const label = await loadLabel(deps, request, loaded, true);
      await changeLabelSubscription(deps, viewer, label, subscribe, loaded.project.id);
      return reply.status(201).send(await present(request, loaded, label));
    });
  }
}
