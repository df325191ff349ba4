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
import { optionalBoolean, optionalString } from '../../http/params.ts';
import { canAdminGroupLabelsAndMilestones } from '../../policies/groups.ts';
import { findGroupLabelByIdOrTitle, groupLabelList } from '../../views/label-views.ts';
import { registerLabels, type LabelPlace } from './labels.ts';

const groupPlace = (deps: Deps): LabelPlace<LoadedGroup> => ({
  base: '/groups/:id/labels',
  labelParam: 'name',
  load: async (request: FastifyRequest) => {
    requireViewer(request);
    return loadGroup(deps, request);
  },
  mayAdminister: (loaded) => canAdminGroupLabelsAndMilestones(loaded.access),
  owner: (loaded) => ({ groupId: loaded.group.id }),
  listParams: (params) => {
    optionalBoolean(params, 'include_ancestor_groups');
    optionalBoolean(params, 'include_descendant_groups');
    return { search: optionalString(params, 'search')?.toLowerCase(), withGroupLabels: true };
  },
  readsGroupLabels: () => true,
  find: (loaded, named) => findGroupLabelByIdOrTitle(deps, loaded.group.id, named),
  views: (request, loaded, labels, withCounts) =>
    groupLabelList(deps, requireViewer(request), loaded.group, labels, withCounts),
  subscriptionProjectId: () => null,
});

export function register(app: FastifyInstance, deps: Deps): void {
  registerLabels(app, deps, groupPlace(deps));
}
