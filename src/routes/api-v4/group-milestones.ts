// v4's group milestones (lib/api/group_milestones.rb, lib/api/milestone_responses.rb): the list (newest
// first, paginated; `state`, `iids[]`, `title`, `search`), one by id, create (201), edit (state_event
// close/activate) and delete (204) for reporters of the group, and a milestone's issues and merge
// requests across the group's projects the caller may read, in v4's Issue and MergeRequestBasic
// entities. Its issues and merge requests are those that carry it (the group's projects may set it).
// Reading needs only read access to the group. Labrador has no subgroups: `include_parent_milestones`
// changes nothing.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadGroup, type LoadedGroup } from '../../http/loaders.ts';
import { paginate, paginateCapped } from '../../http/pagination.ts';
import {
  optionalBoolean,
  optionalDay,
  optionalOneOf,
  optionalString,
  optionalStringList,
  pathInteger,
  presentString,
  requestParams,
  type Params,
} from '../../http/params.ts';
import { forbidden, paramInvalid, paramValueInvalid, recordNotFound } from '../../errors.ts';
import { canAdminGroupLabelsAndMilestones } from '../../policies/groups.ts';
import { createMilestone, destroyMilestone, editMilestone } from '../../services/issues/milestones.ts';
import {
  countMilestoneList,
  findMilestoneOfGroup,
  milestoneRowsPage,
  type MilestoneListFilter,
} from '../../views/milestone-views.ts';
import { countIssueList, groupIssueScope, issueListPage } from '../../views/issue-views.ts';
import {
  countMergeRequestList,
  listMergeRequestsAcross,
  mergeRequestListQuery,
  readableMergeRequestProjects,
} from '../../views/merge-request-views.ts';
import { issueClosings, mergeRequestClosings } from '../../views/issuable-closings.ts';
import { presentIssueV4 } from '../../presenters/api-v4/issue.ts';
import { presentMergeRequestBasicV4 } from '../../presenters/api-v4/merge-request.ts';
import { presentMilestoneV4 } from '../../presenters/api-v4/milestone.ts';
import { noContent, requireParams } from './conventions.ts';

function administered(loaded: LoadedGroup): LoadedGroup {
  if (!canAdminGroupLabelsAndMilestones(loaded.access)) throw forbidden();
  return loaded;
}

async function loadMilestone(deps: Deps, request: FastifyRequest, loaded: LoadedGroup) {
  const id = pathInteger(request.params as Params, 'milestone_id');
  const milestone = await findMilestoneOfGroup(deps, loaded.group.id, id);
  if (!milestone) throw recordNotFound();
  return milestone;
}

function listFilter(params: Params, groupId: number): MilestoneListFilter {
  const state = optionalOneOf(params, 'state', ['active', 'closed', 'all'], () => paramValueInvalid('state'));
  const iids = optionalStringList(params, 'iids')?.map((text) => {
    if (!/^\d{1,10}$/.test(text.trim())) throw paramInvalid('iids');
    return Number(text);
  });
  optionalBoolean(params, 'include_parent_milestones');
  return {
    groupId,
    state: state === 'all' ? undefined : state,
    iids,
    title: optionalString(params, 'title'),
    search: presentString(params, 'search'),
  };
}

function dates(params: Params) {
  return { dueDate: optionalDay(params, 'due_date'), startDate: optionalDay(params, 'start_date') };
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const base = '/groups/:id/milestones';

  app.get(base, async (request, reply) => {
    const params = requestParams(request);
    const loaded = await loadGroup(deps, request);
    const filter = listFilter(params, loaded.group.id);
    return paginate(
      request,
      reply,
      baseUrl,
      () => countMilestoneList(deps, filter),
      async (page) =>
        (await milestoneRowsPage(deps, filter, page)).map((row) =>
          presentMilestoneV4(row, loaded.group, baseUrl),
        ),
    );
  });

  app.get(`${base}/:milestone_id`, async (request) => {
    const loaded = await loadGroup(deps, request);
    return presentMilestoneV4(await loadMilestone(deps, request, loaded), loaded.group, baseUrl);
  });

  app.post(base, async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    requireParams(params, 'title');
    const loaded = administered(await loadGroup(deps, request));
    const milestone = await createMilestone(
      deps,
      viewer,
      { groupId: loaded.group.id },
      { title: String(params.title), description: presentString(params, 'description'), ...dates(params) },
    );
    return reply.status(201).send(presentMilestoneV4(milestone, loaded.group, baseUrl));
  });

  app.put(`${base}/:milestone_id`, async (request) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const stateEvent = optionalOneOf(params, 'state_event', ['close', 'activate'], () =>
      paramValueInvalid('state_event'),
    );
    const loaded = administered(await loadGroup(deps, request));
    const milestone = await loadMilestone(deps, request, loaded);
    const updated = await editMilestone(deps, viewer, milestone, {
      title: presentString(params, 'title'),
      description: presentString(params, 'description'),
      ...dates(params),
      stateEvent,
    });
    return presentMilestoneV4(updated, loaded.group, baseUrl);
  });

  app.delete(`${base}/:milestone_id`, async (request, reply) => {
    const viewer = requireViewer(request);
    const loaded = administered(await loadGroup(deps, request));
    const milestone = await loadMilestone(deps, request, loaded);
    await destroyMilestone(deps, viewer, milestone);
    return noContent(reply);
  });

  app.get(`${base}/:milestone_id/issues`, async (request, reply) => {
    const viewer = requireViewer(request);
    const loaded = await loadGroup(deps, request);
    const milestone = await loadMilestone(deps, request, loaded);
    const readable = await groupIssueScope(deps.db.kysely, viewer, loaded.group);
    const filter = {
      projectIds: readable.projectIds,
      confidential: readable.confidential,
      milestoneId: milestone.id,
      orderBy: 'created_at' as const,
      sort: 'desc' as const,
    };
    return paginateCapped(
      request,
      reply,
      baseUrl,
      (cap) => countIssueList(deps, filter, cap),
      async (page) => {
        const views = await issueListPage(deps, viewer, filter, page, readable.records);
        const closings = await issueClosings(
          deps,
          views.map((view) => view.issue),
        );
        return views.map((view) => presentIssueV4(view, closings.get(view.issue.id), baseUrl));
      },
    );
  });

  app.get(`${base}/:milestone_id/merge_requests`, async (request, reply) => {
    const viewer = requireViewer(request);
    const loaded = await loadGroup(deps, request);
    const milestone = await loadMilestone(deps, request, loaded);
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
