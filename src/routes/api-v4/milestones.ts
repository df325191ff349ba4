// v4's project milestones (lib/api/project_milestones.rb): the list (newest first, paginated; `state`,
// `iids[]`, `title`, `search`), one by id, create (201; title, description, due_date, start_date) and
// edit (state_event close/activate) for v3's admins of milestones, delete (204), and a milestone's
// issues and merge requests, in v4's Issue and MergeRequestBasic entities (as v4's issue and MR lists
// show them, closings read in one batch per page). The group's milestones are routes/api-v4/group-milestones.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { MilestoneRow, NamespaceRow, ProjectRecord, UserRow } from '../../db/types.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadMergeRequestProject, loadProject, type LoadedProject } from '../../http/loaders.ts';
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
import { canAdminMilestones, canReadIssues, canReadMilestones } from '../../policies/issues.ts';
import {
  createMilestone,
  destroyMilestone,
  editMilestone,
  type MilestoneOwner,
} from '../../services/issues/milestones.ts';
import {
  countMilestoneList,
  findMilestoneOfProject,
  milestoneRowsPage,
  type MilestoneListFilter,
} from '../../views/milestone-views.ts';
import {
  countIssueList,
  issueListPage,
  projectIssueScope,
  type IssueListFilter,
} from '../../views/issue-views.ts';
import { countMergeRequestsOf, listMergeRequestsOf } from '../../views/merge-request-views.ts';
import { mergeRequestClosings } from '../../views/issuable-closings.ts';
import { presentIssueViews } from './issues.ts';
import { presentMergeRequestBasicV4 } from '../../presenters/api-v4/merge-request.ts';
import { presentMilestoneV4 } from '../../presenters/api-v4/milestone.ts';
import { noContent, requireParams } from './conventions.ts';

function readable(loaded: LoadedProject): LoadedProject {
  if (!canReadMilestones(loaded.access, loaded)) throw forbidden();
  return loaded;
}

/**
 * Where a project's and a group's milestone routes differ: their owner (`L`, as loaded), who may read
 * and write, where the milestones are looked up and kept, and which issues a milestone's list reaches.
 */
export interface MilestonePlace<L> {
  base: string;
  /** The owner for a read (404 hidden, 403 without the right to read milestones). */
  read: (request: FastifyRequest) => Promise<L>;
  /** The owner for a write (403 without the right to administer milestones). */
  administer: (request: FastifyRequest) => Promise<L>;
  /** The project's list checks its filters before loading the project; the group's after. */
  filterBeforeLoad: boolean;
  /** Flags the place accepts and checks but which change nothing. */
  inertFlags: string[];
  scope: (loaded: L) => { projectId: number } | { groupId: number };
  owner: (loaded: L) => MilestoneOwner;
  find: (loaded: L, id: number) => Promise<MilestoneRow | undefined>;
  presentOwner: (loaded: L) => ProjectRecord | NamespaceRow;
  /** The projects whose issues the viewer may read there, and what of them is confidential. */
  issueScope: (
    viewer: UserRow,
    loaded: L,
  ) => Promise<Pick<IssueListFilter, 'projectIds' | 'confidential'> & { records: ProjectRecord[] }>;
}

/** The `:milestone_id` milestone of the place, or 404 `404 Not found`. */
export async function loadMilestone<L>(
  place: MilestonePlace<L>,
  request: FastifyRequest,
  loaded: L,
): Promise<MilestoneRow> {
  const milestone = await place.find(loaded, pathInteger(request.params as Params, 'milestone_id'));
  if (!milestone) throw recordNotFound();
  return milestone;
}

function listFilter(params: Params, inertFlags: string[]): MilestoneListFilter {
  const state = optionalOneOf(params, 'state', ['active', 'closed', 'all'], () => paramValueInvalid('state'));
  const iids = optionalStringList(params, 'iids')?.map((text) => {
    if (!/^\d{1,10}$/.test(text.trim())) throw paramInvalid('iids');
    return Number(text);
  });
  for (const flag of inertFlags) optionalBoolean(params, flag);
  return {
    state: state === 'all' ? undefined : state,
    iids,
    title: optionalString(params, 'title'),
    search: presentString(params, 'search'),
  };
}

function dates(params: Params) {
  return { dueDate: optionalDay(params, 'due_date'), startDate: optionalDay(params, 'start_date') };
}

/** A place's milestones: list, one, create, edit, delete and a milestone's issues. */
export function registerMilestones<L>(app: FastifyInstance, deps: Deps, place: MilestonePlace<L>): void {
  const baseUrl = deps.config.externalUrl;
  const { base } = place;
  const present = (milestone: MilestoneRow, loaded: L) =>
    presentMilestoneV4(milestone, place.presentOwner(loaded), baseUrl);

  app.get(base, async (request, reply) => {
    const params = requestParams(request);
    const early = place.filterBeforeLoad ? listFilter(params, place.inertFlags) : undefined;
    const loaded = await place.read(request);
    const filter = { ...(early ?? listFilter(params, place.inertFlags)), ...place.scope(loaded) };
    return paginate(
      request,
      reply,
      baseUrl,
      () => countMilestoneList(deps, filter),
      async (page) => (await milestoneRowsPage(deps, filter, page)).map((row) => present(row, loaded)),
    );
  });

  app.get(`${base}/:milestone_id`, async (request) => {
    const loaded = await place.read(request);
    return present(await loadMilestone(place, request, loaded), loaded);
  });

  app.post(base, async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    requireParams(params, 'title');
    const loaded = await place.administer(request);
    const milestone = await createMilestone(deps, viewer, place.owner(loaded), {
      title: String(params.title),
      description: presentString(params, 'description'),
      ...dates(params),
    });
    return reply.status(201).send(present(milestone, loaded));
  });

  app.put(`${base}/:milestone_id`, async (request) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const stateEvent = optionalOneOf(params, 'state_event', ['close', 'activate'], () =>
      paramValueInvalid('state_event'),
    );
    const loaded = await place.administer(request);
    const milestone = await loadMilestone(place, request, loaded);
    const updated = await editMilestone(deps, viewer, milestone, {
      title: presentString(params, 'title'),
      description: presentString(params, 'description'),
      ...dates(params),
      stateEvent,
    });
    return present(updated, loaded);
  });

  app.delete(`${base}/:milestone_id`, async (request, reply) => {
    const viewer = requireViewer(request);
    const loaded = await place.administer(request);
    const milestone = await loadMilestone(place, request, loaded);
    await destroyMilestone(deps, viewer, milestone);
    return noContent(reply);
  });

  app.get(`${base}/:milestone_id/issues`, async (request, reply) => {
    const viewer = requireViewer(request);
    const loaded = await place.read(request);
    const milestone = await loadMilestone(place, request, loaded);
    const { records, ...scope } = await place.issueScope(viewer, loaded);
    const filter = {
      ...scope,
      milestoneId: milestone.id,
      orderBy: 'created_at' as const,
      sort: 'desc' as const,
    };
    return paginateCapped(
      request,
      reply,
      baseUrl,
      (cap) => countIssueList(deps, filter, cap),
      async (page) => presentIssueViews(deps, await issueListPage(deps, viewer, filter, page, records)),
    );
  });
}

const projectPlace = (deps: Deps): MilestonePlace<LoadedProject> => ({
  base: '/projects/:id/milestones',
  read: async (request) => readable(await loadProject(deps, request)),
  administer: async (request) => {
    const loaded = await loadProject(deps, request);
    if (!canAdminMilestones(loaded.access, loaded)) throw forbidden();
    return loaded;
  },
  filterBeforeLoad: true,
  inertFlags: [],
  scope: (loaded) => ({ projectId: loaded.project.id }),
  owner: (loaded) => loaded.project.id,
  find: (loaded, id) => findMilestoneOfProject(deps, loaded.project.id, id),
  presentOwner: (loaded) => loaded,
  issueScope: async (viewer, loaded) => {
    const scope = projectIssueScope(viewer, loaded);
    const projectIds = canReadIssues(loaded.access, loaded) ? scope.projectIds : [];
    return { ...scope, projectIds, records: [loaded] };
  },
});

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const place = projectPlace(deps);
  registerMilestones(app, deps, place);

  app.get(`${place.base}/:milestone_id/merge_requests`, async (request, reply) => {
    const { viewer, project } = await loadMergeRequestProject(deps, request, await place.read(request));
    const milestone = await loadMilestone(place, request, project);
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
