// v4's issues (lib/api/issues.rb): a project's, a group's and the caller's (`scope` created_by_me,
// assigned_to_me or all), addressed by `:issue_iid`, never the global id; filters state, labels (every
// one named; None or Any), milestone, author_id, assignee_id, search, iids[], created/updated after/before; order_by
// and sort. Create, edit (state_event, assignee_ids), delete (204), subscribe/unsubscribe (304 when
// nothing changes) and time_stats. The v3 services and views serve both; only the entity differs.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { IssueRow, UserRow } from '../../db/types.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadGroup, loadIssueByIid, loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginateCapped, parsePage, setPaginationHeaders } from '../../http/pagination.ts';
import {
  boundedSearch,
  optionalOneOf,
  optionalString,
  optionalStringList,
  presentString,
  requestParams,
  type Params,
} from '../../http/params.ts';
import { ApiError, forbidden, notFound, paramValueInvalid } from '../../errors.ts';
import { canDestroyIssue, canReadIssues } from '../../policies/issues.ts';
import {
  changeSubscription,
  createIssue,
  destroyIssue,
  editIssue,
  issueIssuable,
} from '../../services/issues/issues.ts';
import {
  countIssueList,
  groupIssueScope,
  issueListPage,
  loadIssueView,
  projectIssueScope,
  viewerIssueScope,
  type IssueListFilter,
} from '../../views/issue-views.ts';
import { issueClosings } from '../../views/issuable-closings.ts';
import type { IssueView } from '../../presenters/api-v3/issue.ts';
import { NO_TIME_STATS, presentIssueV4 } from '../../presenters/api-v4/issue.ts';
import { issueInput, timeParam } from '../api-v3/issues.ts';
import { commaLists, noContent, requireParams } from './conventions.ts';

const SCOPES = ['created_by_me', 'assigned_to_me', 'all'] as const;

/** A list's filters that are the same for every list of issues and merge requests in v4. */
export function v4ListFilters(raw: Params) {
  const params = commaLists(raw, 'labels');
  const state = optionalOneOf(params, 'state', ['opened', 'closed', 'all', 'merged', 'locked'] as const, () =>
    paramValueInvalid('state'),
  );
  const named = presentString(params, 'labels')
    ?.split(',')
    .map((label) => label.trim())
    .filter((label) => label !== '');
  // `labels=None` (or `No Label`) asks for those without a label, `labels=Any` for those with one.
  const only = named?.length === 1 ? named[0]!.toLowerCase() : undefined;
  const labelled = only === 'any' ? true : only === 'none' || only === 'no label' ? false : undefined;
  const labels = labelled === undefined ? named : undefined;
  const milestone = presentString(params, 'milestone');
  const idFilter = (name: string) => {
    const text = presentString(params, name)?.trim();
    if (text === undefined) return undefined;
    if (/^none$/i.test(text)) return null;
    if (!/^\d{1,10}$/.test(text)) throw paramValueInvalid(name);
    return Number(text);
  };
  const iids = optionalStringList(params, 'iids')?.map((value) => {
    if (!/^\s*\d{1,10}\s*$/.test(value)) throw paramValueInvalid('iids');
    return Number(value);
  });
  const authorId = idFilter('author_id');
  return {
    state,
    labels,
    labelled,
    milestoneTitle:
      milestone === undefined || milestone === 'None' || milestone === 'No Milestone' ? undefined : milestone,
    noMilestone: milestone === 'None' || milestone === 'No Milestone',
    authorId: authorId === null ? undefined : authorId,
    assigneeId: idFilter('assignee_id'),
    search: boundedSearch(presentString(params, 'search')),
    iids,
    createdAfter: timeParam(params, 'created_after'),
    createdBefore: timeParam(params, 'created_before'),
    updatedAfter: timeParam(params, 'updated_after'),
    updatedBefore: timeParam(params, 'updated_before'),
    orderBy:
      optionalOneOf(params, 'order_by', ['created_at', 'updated_at'] as const, () =>
        paramValueInvalid('order_by'),
      ) ?? ('created_at' as const),
    sort:
      optionalOneOf(params, 'sort', ['asc', 'desc'] as const, () => paramValueInvalid('sort')) ??
      ('desc' as const),
  };
}

/** v4's `scope`: created_by_me unless asked (the caller's own lists), all for a project's or group's. */
export function v4Scope(params: Params, fallback: (typeof SCOPES)[number]) {
  const raw = optionalString(params, 'scope')?.replace(/-/g, '_');
  if (raw === undefined) return fallback;
  if (!(SCOPES as readonly string[]).includes(raw)) throw paramValueInvalid('scope');
  return raw as (typeof SCOPES)[number];
}

export function issueFilter(params: Params): Omit<IssueListFilter, 'projectIds' | 'confidential'> {
  const f = v4ListFilters(params);
  return {
    state: f.state === 'opened' || f.state === 'closed' ? f.state : undefined,
    labels: f.labels && f.labels.length > 0 ? { titles: f.labels, all: true } : undefined,
    labelled: f.labelled,
    milestoneTitle: f.milestoneTitle,
    noMilestone: f.noMilestone || undefined,
    authorId: f.authorId,
    assigneeId: f.assigneeId,
    search: f.search,
    iids: f.iids,
    createdAfter: f.createdAfter,
    createdBefore: f.createdBefore,
    updatedAfter: f.updatedAfter,
    updatedBefore: f.updatedBefore,
    orderBy: f.orderBy,
    sort: f.sort,
  };
}

/** The scope's person filter over the others: the caller as author or assignee. */
function scoped(filter: ReturnType<typeof issueFilter>, viewer: UserRow, scope: (typeof SCOPES)[number]) {
  if (scope === 'created_by_me') return { ...filter, authorId: viewer.id };
  if (scope === 'assigned_to_me') return { ...filter, assigneeId: viewer.id };
  return filter;
}

/** v4's assignee_ids (Labrador keeps one assignee: the first; an empty list unassigns) or assignee_id. */
function v4IssueInput(params: Params) {
  const ids = optionalStringList(params, 'assignee_ids');
  const assignee = ids === undefined ? {} : { assignee_id: ids.find((id) => id.trim() !== '') ?? '' };
  return issueInput({ ...commaLists(params, 'labels'), ...assignee });
}

/** v4 names what it did not find: `404 Issue Not Found`. */
async function findIssue(deps: Deps, request: FastifyRequest, project: LoadedProject): Promise<IssueRow> {
  try {
    return await loadIssueByIid(deps, request, project);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound('Issue');
    throw error;
  }
}

/** v4 Issue entities of a page of issues, with the MRs that close each (one read for the page). */
export async function presentIssueViews(deps: Deps, views: IssueView[]) {
  const closings = await issueClosings(
    deps,
    views.map((view) => view.issue),
  );
  return views.map((view) => presentIssueV4(view, closings.get(view.issue.id), deps.config.externalUrl));
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  const present = (views: IssueView[]) => presentIssueViews(deps, views);
  const entity = async (viewer: UserRow, issue: IssueRow, project: LoadedProject) =>
    (await present([await loadIssueView(deps, viewer, issue, project)]))[0]!;

  const list = (
    request: FastifyRequest,
    reply: FastifyReply,
    filter: IssueListFilter,
    viewer: UserRow,
    records: Parameters<typeof issueListPage>[4],
  ) =>
    paginateCapped(
      request,
      reply,
      baseUrl,
      (cap) => countIssueList(deps, filter, cap),
      async (page) => present(await issueListPage(deps, viewer, filter, page, records)),
    );

  app.get('/issues', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const filter = issueFilter(params);
    const scope = v4Scope(params, 'created_by_me');
    const readable = await viewerIssueScope(deps.db.kysely, viewer, scope);
    const listed = {
      ...scoped(filter, viewer, scope),
      projectIds: readable.projectIds,
      confidential: readable.confidential,
    };
    return list(request, reply, listed, viewer, readable.records);
  });

  app.get('/groups/:id/issues', async (request, reply) => {
    const viewer = requireViewer(request);
    const { group } = await loadGroup(deps, request);
    const params = requestParams(request);
    const readable = await groupIssueScope(deps.db.kysely, viewer, group);
    const filter = scoped(issueFilter(params), viewer, v4Scope(params, 'all'));
    return list(
      request,
      reply,
      { ...filter, projectIds: readable.projectIds, confidential: readable.confidential },
      viewer,
      readable.records,
    );
  });

  app.get('/projects/:id/issues', async (request, reply) => {
    const viewer = requireViewer(request);
    const loaded = await loadProject(deps, request);
    if (!canReadIssues(loaded.access, loaded)) {
      setPaginationHeaders(request, reply, baseUrl, parsePage(request), 0);
      return [];
    }
    const params = requestParams(request);
    const filter = scoped(issueFilter(params), viewer, v4Scope(params, 'all'));
    return list(request, reply, { ...filter, ...projectIssueScope(viewer, loaded) }, viewer, [loaded]);
  });

  app.get('/projects/:id/issues/:issue_iid', async (request) => {
    const viewer = requireViewer(request);
    const loaded = await loadProject(deps, request);
    return entity(viewer, await findIssue(deps, request, loaded), loaded);
  });

  app.post('/projects/:id/issues', async (request, reply) => {
    const viewer = requireViewer(request);
    const loaded = await loadProject(deps, request);
    const params = requestParams(request);
    requireParams(params, 'title');
    const issue = await createIssue(deps, viewer, loaded, {
      ...v4IssueInput(params),
      title: String(params.title),
    });
    return reply.status(201).send(await entity(viewer, issue, loaded));
  });

  app.put('/projects/:id/issues/:issue_iid', async (request) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const stateEvent = optionalOneOf(params, 'state_event', ['close', 'reopen'] as const, () =>
      paramValueInvalid('state_event'),
    );
    const loaded = await loadProject(deps, request);
    const issue = await findIssue(deps, request, loaded);
    const updated = await editIssue(deps, viewer, loaded, issue, { ...v4IssueInput(params), stateEvent });
    return entity(viewer, updated, loaded);
  });

  // Owners and administrators only (GitLab's destroy_issue); a hidden issue stays a 404.
  app.delete('/projects/:id/issues/:issue_iid', async (request, reply) => {
    const loaded = await loadProject(deps, request);
    const issue = await findIssue(deps, request, loaded);
    if (!canDestroyIssue(loaded.access)) throw forbidden();
    await destroyIssue(deps, issue);
    return noContent(reply);
  });

  for (const subscribe of [true, false]) {
    app.post(
      `/projects/:id/issues/:issue_iid/${subscribe ? 'subscribe' : 'unsubscribe'}`,
      async (request, reply) => {
        const viewer = requireViewer(request);
        const loaded = await loadProject(deps, request);
        const issue = await findIssue(deps, request, loaded);
        await changeSubscription(deps, viewer, issueIssuable(issue), subscribe);
        return reply.status(201).send(await entity(viewer, issue, loaded));
      },
    );
  }

  // Labrador tracks no time: every issue shows what GitLab shows for one nobody tracked time on.
  app.get('/projects/:id/issues/:issue_iid/time_stats', async (request) => {
    const loaded = await loadProject(deps, request);
    await findIssue(deps, request, loaded);
    return NO_TIME_STATS;
  });
}
