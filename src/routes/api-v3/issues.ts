// Issues (GitLab 8.13's lib/api/issues.rb with the access checks of 8.13.12): the caller's own issues,
// a group's, a project's (filters state, labels, milestone, iid; order_by, sort), one issue, create, edit
// (state_event close/reopen), delete (owners and administrators) and move. Paths take global ids; lists
// are paginated, their X-Total from kept counts or counted no further than a cap.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { IssueRow, ProjectRecord, UserRow } from '../../db/types.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadGroup, loadIssue, loadProject, readableProjectByIdParam } from '../../http/loaders.ts';
import { paginateCapped, parsePage, setPaginationHeaders } from '../../http/pagination.ts';
import {
  optionalDay,
  optionalLabelTitles,
  optionalLink,
  optionalOneOf,
  optionalString,
  pathInteger,
  presentString,
  requestParams,
  requiredString,
  toBoolean,
  type Params,
} from '../../http/params.ts';
import { forbidden, paramValueInvalid, recordNotFound } from '../../errors.ts';
import { canDestroyIssue, canReadIssues } from '../../policies/issues.ts';
import {
  createIssue,
  destroyIssue,
  editIssue,
  moveIssue,
  type IssueInput,
} from '../../services/issues/issues.ts';
import {
  countIssueList,
  findIssueOfProject,
  groupIssueScope,
  issueListPage,
  loadIssueView,
  projectIssueScope,
  type IssueListFilter,
} from '../../views/issue-views.ts';
import { presentIssue, presentIssueRecord } from '../../presenters/api-v3/issue.ts';

function listOptions(params: Params, defaultState?: 'opened') {
  const state = optionalString(params, 'state') ?? defaultState;
  const labels = presentString(params, 'labels')
    ?.split(',')
    .map((label) => label.trim())
    .filter((label) => label !== '');
  return {
    state: state === 'opened' || state === 'closed' ? (state as 'opened' | 'closed') : undefined,
    labels,
    orderBy:
      optionalString(params, 'order_by') === 'updated_at' ? ('updated_at' as const) : ('created_at' as const),
    sort: optionalString(params, 'sort') === 'asc' ? ('asc' as const) : ('desc' as const),
  };
}

/** `milestone` names a milestone by title; `No Milestone` asks for issues without one. */
function milestoneFilter(params: Params): Pick<IssueListFilter, 'milestoneTitle' | 'noMilestone'> {
  const title = presentString(params, 'milestone');
  if (title === undefined) return {};
  return title === 'No Milestone' ? { noMilestone: true } : { milestoneTitle: title };
}

/** A numeric id parameter as 8.13 used it in a where: anything else matches nothing. */
function idParam(params: Params, name: string): number | undefined {
  const text = presentString(params, name)?.trim();
  if (text === undefined) return undefined;
  return /^\d{1,10}$/.test(text) ? Number(text) : -1;
}

export function timeParam(params: Params, name: string): string | undefined {
  const text = presentString(params, name)?.trim();
  if (text === undefined) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

export function issueInput(params: Params): IssueInput {
  return {
    title: presentString(params, 'title'),
    description: presentString(params, 'description'),
    assigneeId: optionalLink(params, 'assignee_id'),
    milestoneId: optionalLink(params, 'milestone_id'),
    labels: optionalLabelTitles(params),
    dueDate: optionalDay(params, 'due_date'),
    confidential: toBoolean(params, 'confidential'),
    createdAt: timeParam(params, 'created_at'),
    updatedAt: timeParam(params, 'updated_at'),
  };
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  /** The Issue entity of one issue, from its view. */
  const entity = async (viewer: UserRow, issue: IssueRow, record: ProjectRecord) =>
    presentIssue(await loadIssueView(deps, viewer, issue, record), baseUrl);

  const list = (
    request: FastifyRequest,
    reply: Parameters<typeof paginateCapped>[1],
    filter: IssueListFilter,
    viewer = requireViewer(request),
    records: Parameters<typeof issueListPage>[4] = [],
  ) =>
    paginateCapped(
      request,
      reply,
      baseUrl,
      (cap) => countIssueList(deps, filter, cap),
      async (page) =>
        (await issueListPage(deps, viewer, filter, page, records)).map((view) => presentIssue(view, baseUrl)),
    );

  // The caller's own issues, in every project (8.13 filtered neither visibility nor milestone here).
  app.get('/issues', async (request, reply) => {
    const viewer = requireViewer(request);
    const options = listOptions(requestParams(request));
    return list(request, reply, {
      authorId: viewer.id,
      state: options.state,
      labels: options.labels ? { titles: options.labels, all: false } : undefined,
      orderBy: options.orderBy,
      sort: options.sort,
    });
  });

  // A group's issues: state defaults to opened, and an issue needs every label asked for.
  app.get('/groups/:id/issues', async (request, reply) => {
    const viewer = requireViewer(request);
    const { group } = await loadGroup(deps, request);
    const params = requestParams(request);
    const options = listOptions(params, 'opened');
    const scope = await groupIssueScope(deps.db.kysely, viewer, group);
    return list(
      request,
      reply,
      {
        projectIds: scope.projectIds,
        state: options.state,
        labels: options.labels ? { titles: options.labels, all: true } : undefined,
        ...milestoneFilter(params),
        confidential: scope.confidential,
        orderBy: options.orderBy,
        sort: options.sort,
      },
      viewer,
      scope.records,
    );
  });

  app.get('/projects/:id/issues', async (request, reply) => {
    const viewer = requireViewer(request);
    const loaded = await loadProject(deps, request);
    if (!canReadIssues(loaded.access, loaded)) {
      // 8.13.12: a project whose issues the caller may not read lists none.
      setPaginationHeaders(request, reply, baseUrl, parsePage(request), 0);
      return [];
    }
    const params = requestParams(request);
    const options = listOptions(params);
    return list(
      request,
      reply,
      {
        ...projectIssueScope(viewer, loaded),
        iid: idParam(params, 'iid'),
        state: options.state,
        labels: options.labels ? { titles: options.labels, all: false } : undefined,
        ...milestoneFilter(params),
        orderBy: options.orderBy,
        sort: options.sort,
      },
      viewer,
      [loaded],
    );
  });

  app.get('/projects/:id/issues/:issue_id', async (request) => {
    const { project, issue } = await loadIssue(deps, request);
    return entity(requireViewer(request), issue, project);
  });

  app.post('/projects/:id/issues', async (request, reply) => {
    const viewer = requireViewer(request);
    const loaded = await loadProject(deps, request);
    const params = requestParams(request);
    const title = requiredString(params, 'title');
    const issue = await createIssue(deps, viewer, loaded, { ...issueInput(params), title });
    return reply.status(201).send(await entity(viewer, issue, loaded));
  });

  app.put('/projects/:id/issues/:issue_id', async (request) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const stateEvent = optionalOneOf(params, 'state_event', ['close', 'reopen'] as const, () =>
      paramValueInvalid('state_event'),
    );
    // 8.13.12 finds the issue in the project (`404 Not found`), then authorizes the update: an issue the
    // caller may not edit, or one of a project whose issues are switched off, is 403.
    const project = await loadProject(deps, request);
    const issue = await findIssueOfProject(
      deps,
      project.project.id,
      pathInteger(request.params as Params, 'issue_id'),
    );
    if (!issue) throw recordNotFound();
    const updated = await editIssue(deps, viewer, project, issue, { ...issueInput(params), stateEvent });
    return entity(viewer, updated, project);
  });

  // Owners and administrators only; an id that names no issue is a 403 too (8.13's authorize! on nil).
  app.delete('/projects/:id/issues/:issue_id', async (request) => {
    const loaded = await loadProject(deps, request);
    if (!canDestroyIssue(loaded.access)) throw forbidden();
    let found;
    try {
      found = await loadIssue(deps, request, loaded);
    } catch {
      throw forbidden();
    }
    const deletedAt = await destroyIssue(deps, found.issue);
    return presentIssueRecord(found.issue, deletedAt);
  });

  app.post('/projects/:id/issues/:issue_id/move', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const targetId = requiredString(params, 'to_project_id');
    const { project, issue } = await loadIssue(deps, request);
    const target = await readableProjectByIdParam(deps, viewer, targetId);
    if (!target) throw recordNotFound();
    const moved = await moveIssue(deps, viewer, project, issue, target);
    return reply.status(201).send(await entity(viewer, moved, target));
  });
}
