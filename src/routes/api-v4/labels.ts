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
  type LabelOwner,
} from '../../services/issues/labels.ts';
import { findLabelByIdOrTitle, projectLabelListForViewer } from '../../views/label-views.ts';
import type { LabelView } from '../../presenters/api-v3/issue.ts';
import { presentLabelV4 } from '../../presenters/api-v4/label.ts';
import type { LabelRow } from '../../db/types.ts';
import { noContent, requireParams } from './conventions.ts';

/** `priority`: an integer, or null/blank to remove it; undefined when not sent. */
function priorityParam(params: Params): number | null | undefined {
  if (params.priority === null || params.priority === '') return null;
  return optionalInteger(params, 'priority');
}

/**
 * Where a project's and a group's label routes differ: their owner (`L`, as loaded), the path
 * parameter that names a label, who may write, where labels are found and kept, and how a list reads.
 */
export interface LabelPlace<L> {
  base: string;
  /** The path parameter that names a label (an id or a title). */
  labelParam: string;
  load: (request: FastifyRequest) => Promise<L>;
  mayAdminister: (loaded: L) => boolean;
  owner: (loaded: L) => LabelOwner;
  /** The list's `search` and whether it takes in the group's labels, each read in the place's order. */
  listParams: (params: Params) => { search: string | undefined; withGroupLabels: boolean };
  /** Whether one label read by id or title may be the group's. */
  readsGroupLabels: (params: Params) => boolean;
  find: (loaded: L, named: string, withGroupLabels: boolean) => Promise<LabelRow | undefined>;
  views: (
    request: FastifyRequest,
    loaded: L,
    labels: LabelRow[] | undefined,
    withCounts: boolean,
    withGroupLabels: boolean,
  ) => Promise<LabelView[]>;
  /** The project a subscription goes through; a group label's has none. */
  subscriptionProjectId: (loaded: L) => number | null;
}

/** A place's labels: list, one, create, edit, delete (by path or parameter) and (un)subscribe. */
export function registerLabels<L>(app: FastifyInstance, deps: Deps, place: LabelPlace<L>): void {
  const { base } = place;
  const one = `${base}/:${place.labelParam}`;

  const administered = async (request: FastifyRequest) => {
    const loaded = await place.load(request);
    if (!place.mayAdminister(loaded)) throw forbidden();
    return loaded;
  };

  /** The label a path's parameter names, or the `label_id`/`name` parameter of the older routes. */
  const loadLabel = async (request: FastifyRequest, loaded: L, withGroupLabels: boolean) => {
    const params = requestParams(request);
    const named = (request.params as Params)[place.labelParam] ?? params.label_id ?? params.name;
    if (named === undefined || named === '') throw paramsMissing('label_id', 'name');
    const label = await place.find(loaded, String(named), withGroupLabels);
    if (!label) throw notFound('Label');
    return label;
  };

  const present = async (request: FastifyRequest, loaded: L, label: LabelRow) => {
    const withCounts = optionalBoolean(requestParams(request), 'with_counts') === true;
    const [view] = await place.views(request, loaded, [label], withCounts, false);
    return presentLabelV4(view!, withCounts);
  };

  app.get(base, async (request, reply) => {
    const loaded = await place.load(request);
    const params = requestParams(request);
    const withCounts = optionalBoolean(params, 'with_counts') === true;
    const { search, withGroupLabels } = place.listParams(params);
    const views = (await place.views(request, loaded, undefined, withCounts, withGroupLabels)).filter(
      (view) => search === undefined || view.label.title.toLowerCase().includes(search),
    );
    return paginateLoaded(request, reply, deps.config.externalUrl, views).map((view) =>
      presentLabelV4(view, withCounts),
    );
  });

  app.get(one, async (request) => {
    const loaded = await place.load(request);
    const withGroupLabels = place.readsGroupLabels(requestParams(request));
    return present(request, loaded, await loadLabel(request, loaded, withGroupLabels));
  });

  app.post(base, async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'name', 'color');
    const loaded = await administered(request);
    const label = await createLabel(deps, place.owner(loaded), {
      name: String(params.name),
      color: String(params.color),
      description: presentString(params, 'description'),
      priority: priorityParam(params),
    });
    return reply.status(201).send(await present(request, loaded, label));
  });

  const edit = async (request: FastifyRequest) => {
    const loaded = await administered(request);
    const label = await loadLabel(request, loaded, false);
    const params = requestParams(request);
    const edited = await editLabel(deps, place.owner(loaded), label.title, {
      newName: presentString(params, 'new_name'),
      color: presentString(params, 'color'),
      description: presentString(params, 'description'),
      priority: priorityParam(params),
    });
    return present(request, loaded, edited);
  };
  app.put(one, edit);
  app.put(base, edit);

  const destroy = async (request: FastifyRequest, reply: Parameters<typeof noContent>[0]) => {
    const loaded = await administered(request);
    const label = await loadLabel(request, loaded, false);
    await destroyLabel(deps, place.owner(loaded), label.title);
    return noContent(reply);
  };
  app.delete(one, destroy);
  app.delete(base, destroy);

  for (const [action, subscribe] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const) {
    app.post(`${one}/${action}`, async (request, reply) => {
      const viewer = requireViewer(request);
      const loaded = await place.load(request);
      const label = await loadLabel(request, loaded, true);
      await changeLabelSubscription(deps, viewer, label, subscribe, place.subscriptionProjectId(loaded));
      return reply.status(201).send(await present(request, loaded, label));
    });
  }
}

const projectPlace = (deps: Deps): LabelPlace<LoadedProject> => ({
  base: '/projects/:id/labels',
  labelParam: 'label_id',
  load: (request) => loadProject(deps, request),
  mayAdminister: (loaded) => canAdminLabels(loaded.access, loaded),
  owner: (loaded) => loaded.project.id,
  listParams: (params) => ({
    search: optionalString(params, 'search')?.toLowerCase(),
    withGroupLabels: optionalBoolean(params, 'include_ancestor_groups') !== false,
  }),
  readsGroupLabels: (params) => optionalBoolean(params, 'include_ancestor_groups') !== false,
  find: (loaded, named, withGroupLabels) =>
    findLabelByIdOrTitle(deps, loaded.project.id, named, withGroupLabels),
  views: (request, loaded, labels, withCounts, withGroupLabels) =>
    projectLabelListForViewer(deps, request.viewer, loaded, labels, withCounts, withGroupLabels),
  subscriptionProjectId: (loaded) => loaded.project.id,
});

export function register(app: FastifyInstance, deps: Deps): void {
  registerLabels(app, deps, projectPlace(deps));
}
