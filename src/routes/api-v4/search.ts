// v4's search (lib/api/search.rb): GET /search, /groups/:id/search and /projects/:id/search with a
// required `search` and `scope`, paginated as every list. Each scope is the list that already filters by
// `search` (projects, issues, merge requests, milestones, users), over the projects the caller may read:
// the instance's searches reach the caller's own projects (those GET /issues?scope=all lists; projects:
// every project the caller sees), a group's its projects, a project's only itself. A hidden project or
// group answers 404; a project whose feature is off for the caller answers an empty list.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { MilestoneRow, ProjectRecord, UserRow } from '../../db/types.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadGroup, loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginate, paginateCapped, parsePage, setPaginationHeaders } from '../../http/pagination.ts';
import { boundedSearch, requestParams, type Params } from '../../http/params.ts';
import { paramValueInvalid } from '../../errors.ts';
import { canReadIssues, canReadMilestones } from '../../policies/issues.ts';
import { canReadMergeRequests } from '../../policies/merge-requests.ts';
import {
  countIssueList,
  groupIssueScope,
  issueListPage,
  projectIssueScope,
  viewerIssueScope,
  type IssueListFilter,
} from '../../views/issue-views.ts';
import {
  countMergeRequestList,
  listMergeRequestsAcross,
  readableMergeRequestProjects,
} from '../../views/merge-request-views.ts';
import {
  countMilestoneList,
  milestoneRowsPage,
  readableMilestoneProjects,
  type MilestoneListFilter,
} from '../../views/milestone-views.ts';
import { countUserList, listUsersPage } from '../../views/user-views.ts';
import { mergeRequestClosings } from '../../views/issuable-closings.ts';
import { presentMergeRequestBasicV4 } from '../../presenters/api-v4/merge-request.ts';
import { presentMilestoneV4 } from '../../presenters/api-v4/milestone.ts';
import { presentUserBasic } from '../../presenters/api-v4/user.ts';
import { presentProjectListV4, projectListQuery } from './projects.ts';
import { issueFilter, presentIssueViews } from './issues.ts';
import { mergeRequestQueryV4 } from './merge-requests.ts';
import { requireParams } from './conventions.ts';

const INSTANCE_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones', 'users'] as const;
const GROUP_SCOPES = ['projects', 'issues', 'merge_requests', 'milestones'] as const;
const PROJECT_SCOPES = ['issues', 'merge_requests', 'milestones'] as const;

/** Grape's order: `search` and `scope` both required, then scope one of the place's values. */
function searchParams<S extends string>(request: FastifyRequest, scopes: readonly S[]) {
  const params = requestParams(request);
  requireParams(params, 'search', 'scope');
  const scope = String(params.scope);
  if (!(scopes as readonly string[]).includes(scope)) throw paramValueInvalid('scope');
  const search = boundedSearch(String(params.search));
  // Only the text narrows a search: the lists' other filters are not search's parameters.
  const narrowed: Params = { search };
  return { scope: scope as S, search, narrowed };
}

type Reply = FastifyReply;

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  const empty = (request: FastifyRequest, reply: Reply) => {
    setPaginationHeaders(request, reply, baseUrl, parsePage(request), 0);
    return [];
  };

  const issues = (
    request: FastifyRequest,
    reply: Reply,
    viewer: UserRow,
    scope: Pick<IssueListFilter, 'projectIds' | 'confidential'>,
    records: ProjectRecord[],
    narrowed: Params,
  ) => {
    const filter = { ...issueFilter(narrowed), ...scope };
    return paginateCapped(
      request,
      reply,
      baseUrl,
      (cap) => countIssueList(deps, filter, cap),
      async (page) => presentIssueViews(deps, await issueListPage(deps, viewer, filter, page, records)),
    );
  };

  const mergeRequests = (
    request: FastifyRequest,
    reply: Reply,
    viewer: UserRow,
    target: LoadedProject | { projectIds: number[]; records: ProjectRecord[] },
    narrowed: Params,
  ) => {
    const query = mergeRequestQueryV4(
      'projectIds' in target ? target.projectIds : target,
      narrowed,
      viewer,
      'all',
    );
    const records = 'projectIds' in target ? target.records : [target];
    return paginateCapped(
      request,
      reply,
      baseUrl,
      (cap) => countMergeRequestList(deps, query, cap),
      async (page) => {
        const views = await listMergeRequestsAcross(deps, records, viewer, query, page.offset, page.limit);
        const closings = await mergeRequestClosings(
          deps,
          views.map((view) => view.mr),
        );
        return views.map((view) => presentMergeRequestBasicV4(view, closings, baseUrl));
      },
    );
  };

  const milestones = (request: FastifyRequest, reply: Reply, records: ProjectRecord[], search: string) => {
    const byId = new Map(records.map((record) => [record.project.id, record]));
    const filter: MilestoneListFilter = { projectIds: [...byId.keys()], search };
    const present = (milestone: MilestoneRow) =>
      presentMilestoneV4(milestone, byId.get(milestone.project_id!)!, baseUrl);
    return paginate(
      request,
      reply,
      baseUrl,
      () => countMilestoneList(deps, filter),
      async (page) => (await milestoneRowsPage(deps, filter, page)).map(present),
    );
  };

  /** BasicProjectDetails, as GitLab's search presents its projects. */
  const projects = (request: FastifyRequest, reply: Reply, viewer: UserRow, search: string, group?: number) =>
    presentProjectListV4(
      deps,
      request,
      reply,
      { simple: 'true' },
      projectListQuery(viewer, { search }, group === undefined ? {} : { namespaceId: group }),
    );

  app.get('/search', async (request, reply) => {
    const viewer = requireViewer(request);
    const { scope, search, narrowed } = searchParams(request, INSTANCE_SCOPES);
    switch (scope) {
      case 'projects':
        return projects(request, reply, viewer, search);
      case 'issues': {
        const readable = await viewerIssueScope(deps.db.kysely, viewer, 'all');
        return issues(request, reply, viewer, readable, readable.records, narrowed);
      }
      case 'merge_requests': {
        const readable = await readableMergeRequestProjects(deps, viewer, { scope: 'all' });
        return mergeRequests(request, reply, viewer, readable, narrowed);
      }
      case 'milestones':
        return milestones(request, reply, await readableMilestoneProjects(deps, viewer, 'mine'), search);
      case 'users': {
        const filter = { search };
        return paginate(
          request,
          reply,
          baseUrl,
          () => countUserList(deps, filter),
          // UserBasic for everyone, administrators too (GitLab's search presents no more).
          async (page) =>
            (await listUsersPage(deps, viewer, filter, page)).users.map((user) =>
              presentUserBasic(user, baseUrl),
            ),
        );
      }
    }
  });

  app.get('/groups/:id/search', async (request, reply) => {
    const viewer = requireViewer(request);
    const { group } = await loadGroup(deps, request);
    const { scope, search, narrowed } = searchParams(request, GROUP_SCOPES);
    switch (scope) {
      case 'projects':
        return projects(request, reply, viewer, search, group.id);
      case 'issues': {
        const readable = await groupIssueScope(deps.db.kysely, viewer, group);
        return issues(request, reply, viewer, readable, readable.records, narrowed);
      }
      case 'merge_requests': {
        const readable = await readableMergeRequestProjects(deps, viewer, { groupId: group.id });
        return mergeRequests(request, reply, viewer, readable, narrowed);
      }
      case 'milestones': {
        const records = await readableMilestoneProjects(deps, viewer, { groupId: group.id });
        return milestones(request, reply, records, search);
      }
    }
  });

  app.get('/projects/:id/search', async (request, reply) => {
    const viewer = requireViewer(request);
    const loaded = await loadProject(deps, request);
    const { scope, search, narrowed } = searchParams(request, PROJECT_SCOPES);
    switch (scope) {
      case 'issues':
        if (!canReadIssues(loaded.access, loaded)) return empty(request, reply);
        return issues(request, reply, viewer, projectIssueScope(viewer, loaded), [loaded], narrowed);
      case 'merge_requests':
        if (!canReadMergeRequests(loaded.access, loaded)) return empty(request, reply);
        return mergeRequests(request, reply, viewer, loaded, narrowed);
      case 'milestones':
        if (!canReadMilestones(loaded.access, loaded)) return empty(request, reply);
        return milestones(request, reply, [loaded], search);
    }
  });
}
