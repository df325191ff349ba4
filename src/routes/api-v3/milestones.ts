// Milestones (GitLab 8.13's lib/api/milestones.rb): list (state, iid; newest first, paginated), one,
// create and edit (state_event close/activate) for masters and up, and a milestone's issues.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginate, paginateCapped } from '../../http/pagination.ts';
import {
  optionalDay,
  optionalString,
  pathInteger,
  presentString,
  requestParams,
  requiredString,
  type Params,
} from '../../http/params.ts';
import { forbidden, recordNotFound } from '../../errors.ts';
import { canAdminMilestones, canReadIssues, canReadMilestones } from '../../policies/issues.ts';
import { createMilestone, editMilestone } from '../../services/issues/milestones.ts';
import {
  countMilestoneList,
  findMilestoneOfProject,
  milestoneListPage,
} from '../../views/milestone-views.ts';
import { countIssueList, issueListPage, projectIssueScope } from '../../views/issue-views.ts';
import { presentIssue, presentMilestone } from '../../presenters/api-v3/issue.ts';

function readable(loaded: LoadedProject): LoadedProject {
  if (!canReadMilestones(loaded.access, loaded)) throw forbidden();
  return loaded;
}

async function loadMilestone(deps: Deps, request: FastifyRequest, loaded: LoadedProject) {
  const id = pathInteger(request.params as Params, 'milestone_id');
  const milestone = await findMilestoneOfProject(deps, loaded.project.id, id);
  if (!milestone) throw recordNotFound();
  return milestone;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  app.get('/projects/:id/milestones', async (request, reply) => {
    const loaded = readable(await loadProject(deps, request));
    const params = requestParams(request);
    const state = optionalString(params, 'state');
    const iidText = presentString(params, 'iid')?.trim();
    const filter = {
      projectId: loaded.project.id,
      state: state === 'active' || state === 'closed' ? (state as 'active' | 'closed') : undefined,
      iid: iidText === undefined ? undefined : /^\d{1,10}$/.test(iidText) ? Number(iidText) : -1,
    };
    return paginate(
      request,
      reply,
      baseUrl,
      () => countMilestoneList(deps, filter),
      (page) => milestoneListPage(deps, filter, page),
    );
  });

  app.get('/projects/:id/milestones/:milestone_id', async (request) => {
    const loaded = readable(await loadProject(deps, request));
    return presentMilestone(await loadMilestone(deps, request, loaded));
  });

  app.post('/projects/:id/milestones', async (request, reply) => {
    const loaded = await loadProject(deps, request);
    if (!canAdminMilestones(loaded.access, loaded)) throw forbidden();
    const params = requestParams(request);
    const title = requiredString(params, 'title');
    const milestone = await createMilestone(deps, requireViewer(request), loaded.project.id, {
      title,
      description: presentString(params, 'description'),
      dueDate: optionalDay(params, 'due_date'),
    });
    return reply.status(201).send(presentMilestone(milestone));
  });

  app.put('/projects/:id/milestones/:milestone_id', async (request) => {
    const loaded = await loadProject(deps, request);
    if (!canAdminMilestones(loaded.access, loaded)) throw forbidden();
    const milestone = await loadMilestone(deps, request, loaded);
    const params = requestParams(request);
    const stateEvent = optionalString(params, 'state_event');
    const updated = await editMilestone(deps, requireViewer(request), milestone, {
      title: presentString(params, 'title'),
      description: presentString(params, 'description'),
      dueDate: optionalDay(params, 'due_date'),
      stateEvent: stateEvent === 'close' || stateEvent === 'activate' ? stateEvent : undefined,
    });
    return presentMilestone(updated);
  });

  app.get('/projects/:id/milestones/:milestone_id/issues', async (request, reply) => {
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
      async (page) =>
        (await issueListPage(deps, viewer, visible, page, [loaded])).map((view) =>
          presentIssue(view, baseUrl),
        ),
    );
  });
}
