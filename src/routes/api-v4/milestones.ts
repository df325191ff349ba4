// v4's project milestones (lib/api/project_milestones.rb): the list (newest first, paginated; `state`,
// `iids[]`, `title`, `search`), one by id, create (201; title, description, due_date, start_date) and
// edit (state_event close/activate) for v3's admins of milestones, delete (204), and a milestone's
// issues and merge requests, in v4's Issue and MergeRequestBasic entities (as v4's issue and MR lists
// show them, closings read in one batch per page). The group's milestones are routes/api-v4/group-milestones.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadMergeRequestProject, loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginate, paginateCapped } from '../../http/pagination.ts';
import {
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
import { canAdminMilestones, canReadIssues, canReadMilestones } from '../../policies/issues.ts';
import { createMilestone, destroyMilestone, editMilestone } from '../../services/issues/milestones.ts';
import {
  countMilestoneList,
  findMilestoneOfProject,
  milestoneRowsPage,
  type MilestoneListFilter,
} from '../../views/milestone-views.ts';
import { countIssueList, issueListPage, projectIssueScope } from '../../views/issue-views.ts';
import { countMergeRequestsOf, listMergeRequestsOf } from '../../views/merge-request-views.ts';
import { issueClosings, mergeRequestClosings } from '../../views/issuable-closings.ts';
import { presentIssueV4 } from '../../presenters/api-v4/issue.ts';
import { presentMergeRequestBasicV4 } from '../../presenters/api-v4/merge-request.ts';
import { presentMilestoneV4 } from '../../presenters/api-v4/milestone.ts';
import { noContent, requireParams } from './conventions.ts';

function readable(loaded: LoadedProject): LoadedProject {
  if (!canReadMilestones(loaded.access, loaded)) throw forbidden();
  return loaded;
}

function administered(loaded: LoadedProject): LoadedProject {
  if (!canAdminMilestones(loaded.access, loaded)) throw forbidden();
  return loaded;
}

async function loadMilestone(deps: Deps, request: FastifyRequest, loaded: LoadedProject) {
  const id = pathInteger(request.params as Params, 'milestone_id');
  const milestone = await findMilestoneOfProject(deps, loaded.project.id, id);
  if (!milestone) throw recordNotFound();
  return milestone;
}

function listFilter(params: Params, projectId: number): MilestoneListFilter {
  const state = optionalOneOf(params, 'state', ['active', 'closed', 'all'], () => paramValueInvalid('state'));
  const iids = optionalStringList(params, 'iids')?.map((text) => {
    if (!/^\d{1,10}$/.test(text.trim())) throw paramInvalid('iids');
    return Number(text);
  });
  return {
    projectId,
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
  const base = '/projects/:id/milestones';

  app.get(base, async (request, reply) => {
    const filter = listFilter(requestParams(request), 0);
    const loaded = readable(await loadProject(deps, request));
    const scoped = { ...filter, projectId: loaded.project.id };
    return paginate(
      request,
      reply,
      baseUrl,
      () => countMilestoneList(deps, scoped),
      async (page) =>
        (await milestoneRowsPage(deps, scoped, page)).map((row) => presentMilestoneV4(row, loaded, baseUrl)),
    );
  });

  app.get(`${base}/:milestone_id`, async (request) => {
    const loaded = readable(await loadProject(deps, request));
    return presentMilestoneV4(await loadMilestone(deps, request, loaded), loaded, baseUrl);
  });

  app.post(base, async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'title');
    const loaded = administered(await loadProject(deps, request));
    const milestone = await createMilestone(deps, requireViewer(request), loaded.project.id, {
      title: String(params.title),
      description: presentString(params, 'description'),
      ...dates(params),
    });
    return reply.status(201).send(presentMilestoneV4(milestone, loaded, baseUrl));
  });

  app.put(`${base}/:milestone_id`, async (request) => {
    const params = requestParams(request);
    const stateEvent = optionalOneOf(params, 'state_event', ['close', 'activate'], () =>
      paramValueInvalid('state_event'),
    );
    const loaded = administered(await loadProject(deps, request));
    const milestone = await loadMilestone(deps, request, loaded);
    const updated = await editMilestone(deps, requireViewer(request), milestone, {
      title: presentString(params, 'title'),
      description: presentString(params, 'description'),
      ...dates(params),
      stateEvent,
    });
    return presentMilestoneV4(updated, loaded, baseUrl);
  });

  app.delete(`${base}/:milestone_id`, async (request, reply) => {
    const loaded = administered(await loadProject(deps, request));
    const milestone = await loadMilestone(deps, request, loaded);
    await destroyMilestone(deps, requireViewer(request), milestone);
    return noContent(reply);
  });

  app.get(`${base}/:milestone_id/issues`, async (request, reply) => {
    const viewer = requireViewer(request);
    const loaded = readable(await loadProject(deps, request));
    const milestone = await loadMilestone(deps, request, loaded);
    const filter = {
      ...projectIssueScope(viewer, loaded),
      milestoneId: milestone.id,
      orderBy: 'created_at' as const,
      sort: 'desc' as const,
    };
    const visible = canReadIssues(loaded.access, loaded) ? filter : { ...filter, projectIds: [] };
    return paginateCapped(
      request,
      reply,
      baseUrl,
      (cap) => countIssueList(deps, visible, cap),
      async (page) => {
        const views = await issueListPage(deps, viewer, visible, page, [loaded]);
        const closings = await issueClosings(
          deps,
          views.map((view) => view.issue),
        );
        return views.map((view) => presentIssueV4(view, closings.get(view.issue.id), baseUrl));
      },
    );
  });

  app.get(`${base}/:milestone_id/merge_requests`, async (request, reply) => {
    const { viewer, project } = await loadMergeRequestProject(
      deps,
      request,
      readable(await loadProject(deps, request)),
    );
    const milestone = await loadMilestone(deps, request, project);
    const query = {
      targetProjectIds: [project.project.id],
      states: null,
      iids: null,
      orderBy: 'created_at' as const,
      sort: 'desc' as const,
      milestoneId: milestone.id,
    };
    return paginate(
      request,
      reply,
      baseUrl,
      () => countMergeRequestsOf(deps, query),
      async (page) => {
        const views = await listMergeRequestsOf(deps, project, viewer, query, page.offset, page.limit);
        const closings = await mergeRequestClosings(
          deps,
          views.map((view) => view.mr),
        );
        return views.map((view) => presentMergeRequestBasicV4(view, closings, baseUrl));
      },
    );
  });
}
