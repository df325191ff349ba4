// v4's group labels (lib/api/group_labels.rb, the GroupLabel entity, and the group label routes of
// lib/api/subscriptions.rb): the list (A→Z, paginated, `search`, counts with `with_counts` over the
// group's projects the caller may read), one label by id or name, create (201, 409 when the title is
// taken), edit and delete by `:name` (an id or a name; the older `PUT`/`DELETE /labels` with `name` or
// `label_id` in the parameters too), subscribe/unsubscribe (201, 304 when nothing changes). Every route
// needs a signed-in caller who may read the group; writes need a reporter of the group. Labrador has no
// subgroups, so `include_ancestor_groups` and `include_descendant_groups` change nothing.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadGroup, type LoadedGroup } from '../../http/loaders.ts';
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
import { canAdminGroupLabelsAndMilestones } from '../../policies/groups.ts';
import {
  changeLabelSubscription,
  createLabel,
  destroyLabel,
  editLabel,
} from '../../services/issues/labels.ts';
import { findGroupLabelByIdOrTitle, groupLabelList } from '../../views/label-views.ts';
import { presentLabelV4 } from '../../presenters/api-v4/label.ts';
import type { LabelRow } from '../../db/types.ts';
import { noContent, requireParams } from './conventions.ts';

function administered(loaded: LoadedGroup): LoadedGroup {
  if (!canAdminGroupLabelsAndMilestones(loaded.access)) throw forbidden();
  return loaded;
}

function priorityParam(params: Params): number | null | undefined {
  if (params.priority === null || params.priority === '') return null;
  return optionalInteger(params, 'priority');
}

async function loadLabel(deps: Deps, request: FastifyRequest, loaded: LoadedGroup): Promise<LabelRow> {
  const params = requestParams(request);
  const path = request.params as Params;
  const named = path.name ?? params.label_id ?? params.name;
  if (named === undefined || named === '') throw paramsMissing('label_id', 'name');
  const label = await findGroupLabelByIdOrTitle(deps, loaded.group.id, String(named));
  if (!label) throw notFound('Label');
  return label;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const base = '/groups/:id/labels';
  const load = async (request: FastifyRequest) => {
    requireViewer(request);
    return loadGroup(deps, request);
  };
  const present = async (request: FastifyRequest, loaded: LoadedGroup, label: LabelRow) => {
    const withCounts = optionalBoolean(requestParams(request), 'with_counts') === true;
    const [view] = await groupLabelList(deps, requireViewer(request), loaded.group, [label], withCounts);
    return presentLabelV4(view!, withCounts);
  };

  app.get(base, async (request, reply) => {
    const loaded = await load(request);
    const params = requestParams(request);
    const withCounts = optionalBoolean(params, 'with_counts') === true;
    optionalBoolean(params, 'include_ancestor_groups');
    optionalBoolean(params, 'include_descendant_groups');
    const search = optionalString(params, 'search')?.toLowerCase();
    const views = (
      await groupLabelList(deps, requireViewer(request), loaded.group, undefined, withCounts)
    ).filter((view) => search === undefined || view.label.title.toLowerCase().includes(search));
    return paginateLoaded(request, reply, deps.config.externalUrl, views).map((view) =>
      presentLabelV4(view, withCounts),
    );
  });

  app.get(`${base}/:name`, async (request) => {
    const loaded = await load(request);
    return present(request, loaded, await loadLabel(deps, request, loaded));
  });

  app.post(base, async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'name', 'color');
    const loaded = administered(await load(request));
    const label = await createLabel(
      deps,
      { groupId: loaded.group.id },
      {
        name: String(params.name),
        color: String(params.color),
        description: presentString(params, 'description'),
        priority: priorityParam(params),
      },
    );
    return reply.status(201).send(await present(request, loaded, label));
  });

  const edit = async (request: FastifyRequest) => {
    const loaded = administered(await load(request));
    const label = await loadLabel(deps, request, loaded);
    const params = requestParams(request);
    const edited = await editLabel(deps, { groupId: loaded.group.id }, label.title, {
      newName: presentString(params, 'new_name'),
      color: presentString(params, 'color'),
      description: presentString(params, 'description'),
      priority: priorityParam(params),
    });
    return present(request, loaded, edited);
  };
  app.put(`${base}/:name`, edit);
  app.put(base, edit);

  const destroy = async (request: FastifyRequest, reply: Parameters<typeof noContent>[0]) => {
    const loaded = administered(await load(request));
    const label = await loadLabel(deps, request, loaded);
    await destroyLabel(deps, { groupId: loaded.group.id }, label.title);
    return noContent(reply);
  };
  app.delete(`${base}/:name`, destroy);
  app.delete(base, destroy);

  for (const [action, subscribe] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const) {
    app.post(`${base}/:name/${action}`, async (request, reply) => {
      const viewer = requireViewer(request);
      const loaded = await load(request);
      const label = await loadLabel(deps, request, loaded);
      await changeLabelSubscription(deps, viewer, label, subscribe, null);
      return reply.status(201).send(await present(request, loaded, label));
    });
  }
}
