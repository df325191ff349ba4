// v4's group milestones (lib/api/group_milestones.rb, lib/api/milestone_responses.rb): the list (newest
// first, paginated; `state`, `iids[]`, `title`, `search`), one by id, create (201), edit (state_event
// close/activate) and delete (204) for reporters of the group, and a milestone's issues and merge
// requests across the group's projects the caller may read, in v4's Issue and MergeRequestBasic
// entities. Its issues and merge requests are those that carry it (the group's projects may set it).
// Reading needs only read access to the group. Labrador has no subgroups: `include_parent_milestones`
// changes nothing.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadGroup, type LoadedGroup } from '../../http/loaders.ts';
import { paginateCapped } from '../../http/pagination.ts';
import { forbidden } from '../../errors.ts';
import { canAdminGroupLabelsAndMilestones } from '../../policies/groups.ts';
import { findMilestoneOfGroup } from '../../views/milestone-views.ts';
import { groupIssueScope } from '../../views/issue-views.ts';
import {
  countMergeRequestList,
  listMergeRequestsAcross,
  mergeRequestListQuery,
  readableMergeRequestProjects,
} from '../../views/merge-request-views.ts';
import { mergeRequestClosings } from '../../views/issuable-closings.ts';
import { presentMergeRequestBasicV4 } from '../../presenters/api-v4/merge-request.ts';
import { loadMilestone, registerMilestones, type MilestonePlace } from './milestones.ts';

const groupPlace = (deps: Deps): MilestonePlace<LoadedGroup> => ({
  base: '/groups/:id/milestones',
  read: (request) => loadGroup(deps, request),
  administer: async (request) => {
    const loaded = await loadGroup(deps, request);
    if (!canAdminGroupLabelsAndMilestones(loaded.access)) throw forbidden();
    return loaded;
  },
  filterBeforeLoad: false,
  inertFlags: ['include_parent_milestones'],
  scope: (loaded) => ({ groupId: loaded.group.id }),
  owner: (loaded) => ({ groupId: loaded.group.id }),
  find: (loaded, id) => findMilestoneOfGroup(deps, loaded.group.id, id),
  presentOwner: (loaded) => loaded.group,
  issueScope: (viewer, loaded) => groupIssueScope(deps.db.kysely, viewer, loaded.group),
});

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const place = groupPlace(deps);
  registerMilestones(app, deps, place);

  app.get(`${place.base}/:milestone_id/merge_requests`, async (request, reply) => {
    const viewer = requireViewer(request);
    const loaded = await place.read(request);
    const milestone = await loadMilestone(place, request, loaded);
    const readable = await readableMergeRequestProjects(deps, viewer, { groupId: loaded.group.id });
    const query = {
      ...mergeRequestListQuery(readable.projectIds, {
        state: 'all',
        iids: null,
        orderBy: undefined,
        sort: undefined,
      }),
      milestoneId: milestone.id,
    };
    return paginateCapped(
      request,
      reply,
      baseUrl,
      (cap) => countMergeRequestList(deps, query, cap),
      async (page) => {
        const views = await listMergeRequestsAcross(
          deps,
          readable.records,
          viewer,
          query,
          page.offset,
          page.limit,
        );
        const closings = await mergeRequestClosings(
          deps,
          views.map((view) => view.mr),
        );
        return views.map((view) => presentMergeRequestBasicV4(view, closings, baseUrl));
      },
    );
  });
}
