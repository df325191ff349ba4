// v4's merge requests (lib/api/merge_requests.rb): a project's, a group's and the caller's (`scope`),
// addressed by `:merge_request_iid`; filters as issues' plus source_branch, target_branch and wip. Create,
// edit (state_event close/reopen), delete (204), merge (merge_when_pipeline_succeeds; 401 may not merge,
// 405 not mergeable, 406 conflicts, 409 sha mismatch), cancel_merge_when_pipeline_succeeds (201
// `{"status":"success"}`), changes, commits, diffs, pipelines, closes_issues, versions,
// subscribe/unsubscribe, time_stats, a commit's MRs (repository/commits/:sha/merge_requests); `squash`
// on create, edit and merge (squash_commit_message), and rebase (202, skip_ci). The services and views are v3's; v4's renames of merge_when_build_succeeds live
// in one table below.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { MergeRequestRow, UserRow } from '../../db/types.ts';
import { requireViewer } from '../../http/auth.ts';
import {
  loadGroup,
  loadMergeRequestByIid,
  loadMergeRequestProject,
  readableProjectByIdParam,
  type LoadedProject,
} from '../../http/loaders.ts';
import { paginateCapped, paginateLoaded } from '../../http/pagination.ts';
import {
  optionalInteger,
  optionalLabelTitles,
  optionalLink,
  optionalOneOf,
  optionalString,
  optionalStringList,
  requestParams,
  toBoolean,
  type Params,
} from '../../http/params.ts';
import { apiError, ApiError, notFound, paramValueInvalid } from '../../errors.ts';
import {
  createMergeRequest,
  deleteMergeRequest,
  updateMergeRequestFields,
} from '../../services/merge-requests/merge-requests.ts';
import { mergeMergeRequest } from '../../services/merge-requests/merge.ts';
import { rebaseMergeRequest } from '../../services/merge-requests/rebase.ts';
import { cancelMergeWhenBuildSucceeds } from '../../services/merge-requests/merge-when-build-succeeds.ts';
import { mergeRequestIssuable } from '../../services/merge-requests/collaboration.ts';
import { changeSubscription } from '../../services/issues/issues.ts';
import {
  countMergeRequestList,
  listMergeRequestsAcross,
  loadMergeRequestViews,
  mergeRequestClosesIssues,
  mergeRequestCommits,
  mergeRequestDetail,
  mergeRequestDiffs,
  mergeRequestListQuery,
  mergeRequestPipelines,
  mergeRequestVersion,
  mergeRequestVersions,
  mergeRequestsWithCommit,
  readableMergeRequestProjects,
  type MergeRequestListParams,
} from '../../views/merge-request-views.ts';
import { loadIssueViews } from '../../views/issue-views.ts';
import { issueClosings, mergeRequestClosings } from '../../views/issuable-closings.ts';
import type { MergeRequestView } from '../../presenters/api-v3/merge-request.ts';
import {
  presentMergeRequestDiff,
  presentMergeRequestDiffFull,
} from '../../presenters/api-v3/merge-request.ts';
import {
  presentMergeRequestBasicV4,
  presentMergeRequestChangesV4,
  presentMergeRequestV4,
} from '../../presenters/api-v4/merge-request.ts';
import { NO_TIME_STATS, presentIssueV4 } from '../../presenters/api-v4/issue.ts';
import { presentCommit } from '../../presenters/api-v4/commit.ts';
import { presentDiff } from '../../presenters/api-v4/diff.ts';
import { presentPipelineBasic } from '../../presenters/api-v4/pipeline.ts';
import { commaLists, noContent, requireParams, v4Params, type Renames } from './conventions.ts';
import { v4ListFilters, v4Scope } from './issues.ts';

const MERGE_RENAMES: Renames = { merge_when_pipeline_succeeds: 'merge_when_build_succeeds' };

type MergeRequestRequest = FastifyRequest<{ Params: { id: string; merge_request_iid: string } }>;

export function mergeRequestQueryV4(
  target: LoadedProject | number[],
  params: Params,
  viewer: UserRow,
  fallback: 'all' | 'created_by_me',
) {
  const f = v4ListFilters(params);
  const scope = v4Scope(params, fallback);
  const listParams: MergeRequestListParams = {
    state: f.state,
    iids: f.iids ?? null,
    orderBy: f.orderBy,
    sort: f.sort,
  };
  const wip = optionalOneOf(params, 'wip', ['yes', 'no'] as const, () => paramValueInvalid('wip'));
  return mergeRequestListQuery(target, listParams, {
    wip: wip === undefined ? undefined : wip === 'yes',
    authorId: scope === 'created_by_me' ? viewer.id : f.authorId,
    assigneeId: scope === 'assigned_to_me' ? viewer.id : f.assigneeId,
    sourceBranch: optionalString(params, 'source_branch'),
    targetBranch: optionalString(params, 'target_branch'),
    search: f.search,
    labels: f.labels,
    labelled: f.labelled,
    milestoneTitle: f.milestoneTitle,
    noMilestone: f.noMilestone || undefined,
    createdAfter: f.createdAfter,
    createdBefore: f.createdBefore,
    updatedAfter: f.updatedAfter,
    updatedBefore: f.updatedBefore,
  });
}

/** v4's assignee_ids (Labrador keeps one assignee: the first; an empty list unassigns) or assignee_id. */
function assigneeOf(params: Params): number | undefined {
  const ids = optionalStringList(params, 'assignee_ids');
  if (ids === undefined) return optionalInteger(params, 'assignee_id');
  const first = ids.find((id) => id.trim() !== '');
  return first === undefined ? 0 : optionalInteger({ first }, 'first');
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  const presentList = async (views: MergeRequestView[]) => {
    const closings = await mergeRequestClosings(
      deps,
      views.map((view) => view.mr),
    );
    return views.map((view) => presentMergeRequestBasicV4(view, closings, baseUrl));
  };
  const single = async (project: LoadedProject, viewer: UserRow, mr: MergeRequestRow) => {
    const [view] = await loadMergeRequestViews(deps, new Map([[project.project.id, project]]), viewer, [mr]);
    const [closings, detail] = await Promise.all([
      mergeRequestClosings(deps, [mr]),
      mergeRequestDetail(deps, project, viewer, mr),
    ]);
    return { view: view!, closings, detail };
  };
  const entity = async (project: LoadedProject, viewer: UserRow, mr: MergeRequestRow) => {
    const { view, closings, detail } = await single(project, viewer, mr);
    return presentMergeRequestV4(view, closings, detail, baseUrl);
  };

  /** The MR of `:merge_request_iid`; v4 names what it did not find: `404 Merge Request Not Found`. */
  const load = async (request: FastifyRequest) => {
    const { viewer, project } = await loadMergeRequestProject(deps, request);
    try {
      return { viewer, project, mr: await loadMergeRequestByIid(deps, request, project) };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw notFound('Merge Request');
      throw error;
    }
  };

  const list = async (
    request: FastifyRequest,
    reply: Parameters<typeof paginateCapped>[1],
    records: LoadedProject[] | Parameters<typeof listMergeRequestsAcross>[1],
    query: ReturnType<typeof mergeRequestQueryV4>,
    viewer: UserRow,
  ) => {
    return paginateCapped(
      request,
      reply,
      baseUrl,
      (cap) => countMergeRequestList(deps, query, cap),
      async (page) =>
        presentList(await listMergeRequestsAcross(deps, records, viewer, query, page.offset, page.limit)),
    );
  };

  app.get('/merge_requests', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    const scope = v4Scope(params, 'created_by_me');
    const readable = await readableMergeRequestProjects(deps, viewer, { scope });
    return list(
      request,
      reply,
      readable.records,
      mergeRequestQueryV4(readable.projectIds, params, viewer, 'created_by_me'),
      viewer,
    );
  });

  app.get('/groups/:id/merge_requests', async (request, reply) => {
    const viewer = requireViewer(request);
    const { group } = await loadGroup(deps, request);
    const params = requestParams(request);
    const readable = await readableMergeRequestProjects(deps, viewer, { groupId: group.id });
    return list(
      request,
      reply,
      readable.records,
      mergeRequestQueryV4(readable.projectIds, params, viewer, 'all'),
      viewer,
    );
  });

  app.get('/projects/:id/merge_requests', async (request, reply) => {
    const { viewer, project } = await loadMergeRequestProject(deps, request);
    const params = requestParams(request);
    return list(request, reply, [project], mergeRequestQueryV4(project, params, viewer, 'all'), viewer);
  });

  // The project's MRs whose commits hold the commit (404 `Commit Not Found` for an unknown one).
  app.get(
    '/projects/:id/repository/commits/:sha/merge_requests',
    async (request: FastifyRequest<{ Params: { id: string; sha: string } }>, reply) => {
      const { viewer, project } = await loadMergeRequestProject(deps, request);
      const views = await mergeRequestsWithCommit(deps, project, viewer, request.params.sha);
      return presentList(paginateLoaded(request, reply, baseUrl, views));
    },
  );

  app.post('/projects/:id/merge_requests', async (request, reply) => {
    const { viewer, project: source } = await loadMergeRequestProject(deps, request);
    const params = requestParams(request);
    requireParams(params, 'source_branch', 'target_branch', 'title');
    const targetId = optionalInteger(params, 'target_project_id');
    let target: LoadedProject = source;
    if (targetId !== undefined && targetId !== source.project.id) {
      const found = await readableProjectByIdParam(deps, viewer, targetId);
      if (!found) throw notFound('Project');
      target = found;
    }
    const mr = await createMergeRequest(deps, viewer, source, target, {
      source_branch: optionalString(params, 'source_branch'),
      target_branch: optionalString(params, 'target_branch'),
      title: optionalString(params, 'title'),
      description: optionalString(params, 'description'),
      assignee_id: assigneeOf(params),
      milestone_id: optionalLink(params, 'milestone_id'),
      labels: optionalLabelTitles(commaLists(params, 'labels')),
      squash: toBoolean(params, 'squash'),
    });
    return reply.code(201).send(await entity(target, viewer, mr));
  });

  const path = '/projects/:id/merge_requests/:merge_request_iid';

  app.get(path, async (request: MergeRequestRequest) => {
    const { viewer, project, mr } = await load(request);
    const shown = await entity(project, viewer, mr);
    // A rebase finishes inside its own request, so none is ever seen under way.
    if (toBoolean(requestParams(request), 'include_rebase_in_progress') === true) {
      return { ...shown, rebase_in_progress: false };
    }
    return shown;
  });

  app.put(path, async (request: MergeRequestRequest) => {
    const { viewer, project, mr } = await load(request);
    const params = requestParams(request);
    const updated = await updateMergeRequestFields(deps, viewer, project, mr, {
      title: optionalString(params, 'title'),
      description: optionalString(params, 'description'),
      target_branch: optionalString(params, 'target_branch'),
      assignee_id: assigneeOf(params),
      milestone_id: optionalLink(params, 'milestone_id'),
      labels: optionalLabelTitles(commaLists(params, 'labels')),
      state_event: optionalOneOf(params, 'state_event', ['close', 'reopen'] as const, () =>
        paramValueInvalid('state_event'),
      ),
      squash: toBoolean(params, 'squash'),
    });
    return entity(project, viewer, updated);
  });

  app.delete(path, async (request: MergeRequestRequest, reply) => {
    const { project, mr } = await load(request);
    await deleteMergeRequest(deps, project, mr);
    return noContent(reply);
  });

  app.put(`${path}/merge`, async (request: MergeRequestRequest) => {
    const { viewer, project, mr } = await load(request);
    const params = v4Params(request, MERGE_RENAMES);
    const remove = toBoolean(params, 'should_remove_source_branch');
    const merged = await mergeMergeRequest(deps, viewer, project, mr, {
      merge_commit_message: optionalString(params, 'merge_commit_message'),
      should_remove_source_branch: remove ? '1' : undefined,
      sha: optionalString(params, 'sha'),
      merge_when_build_succeeds: toBoolean(params, 'merge_when_build_succeeds') === true,
      squash: toBoolean(params, 'squash') === true,
      squash_commit_message: optionalString(params, 'squash_commit_message'),
    });
    return entity(project, viewer, merged);
  });

  app.put(`${path}/rebase`, async (request: MergeRequestRequest, reply) => {
    const { viewer, project, mr } = await load(request);
    const params = requestParams(request);
    await rebaseMergeRequest(deps, viewer, project, mr, { skipCi: toBoolean(params, 'skip_ci') === true });
    // GitLab answers once the rebase is queued; here it is done by now.
    return reply.code(202).send({ rebase_in_progress: false });
  });

  app.post(`${path}/cancel_merge_when_pipeline_succeeds`, async (request: MergeRequestRequest, reply) => {
    const { viewer, project, mr } = await load(request);
    const result = await cancelMergeWhenBuildSucceeds(deps, viewer, project, mr);
    if (result.status !== 'success') throw apiError(406, '406 Not Acceptable');
    // GitLab's route answers what its AutoMergeService returned, not the merge request its docs name.
    return reply.code(201).send({ status: 'success' });
  });

  app.get(`${path}/changes`, async (request: MergeRequestRequest) => {
    const { viewer, project, mr } = await load(request);
    const [{ view, closings, detail }, { diffs }] = await Promise.all([
      single(project, viewer, mr),
      mergeRequestDiffs(deps, project, mr),
    ]);
    return presentMergeRequestChangesV4(view, closings, detail, baseUrl, diffs);
  });

  app.get(`${path}/diffs`, async (request: MergeRequestRequest, reply) => {
    const { project, mr } = await load(request);
    const { diffs } = await mergeRequestDiffs(deps, project, mr);
    return paginateLoaded(request, reply, baseUrl, diffs).map(presentDiff);
  });

  app.get(`${path}/commits`, async (request: MergeRequestRequest, reply) => {
    const { project, mr } = await load(request);
    const commits = await mergeRequestCommits(deps, project, mr);
    return paginateLoaded(request, reply, baseUrl, commits).map((commit) =>
      presentCommit(commit, project, baseUrl),
    );
  });

  app.get(`${path}/pipelines`, async (request: MergeRequestRequest, reply) => {
    const { project, mr } = await load(request);
    const pipelines = await mergeRequestPipelines(deps, project, mr);
    return paginateLoaded(request, reply, baseUrl, pipelines).map((pipeline) =>
      presentPipelineBasic(pipeline, project, baseUrl),
    );
  });

  app.get(`${path}/closes_issues`, async (request: MergeRequestRequest, reply) => {
    const { viewer, project, mr } = await load(request);
    const issues = paginateLoaded(
      request,
      reply,
      baseUrl,
      await mergeRequestClosesIssues(deps, project, viewer, mr),
    );
    const [views, closings] = await Promise.all([
      loadIssueViews(deps, viewer, issues, [project]),
      issueClosings(deps, issues),
    ]);
    return views.map((view) => presentIssueV4(view, closings.get(view.issue.id), baseUrl));
  });

  app.get(`${path}/versions`, async (request: MergeRequestRequest, reply) => {
    const { mr } = await load(request);
    return paginateLoaded(request, reply, baseUrl, await mergeRequestVersions(deps, mr)).map(
      presentMergeRequestDiff,
    );
  });

  app.get<{ Params: { id: string; merge_request_iid: string; version_id: string } }>(
    `${path}/versions/:version_id`,
    async (request) => {
      const { project, mr } = await load(request);
      const versionId = /^\d{1,10}$/.test(request.params.version_id)
        ? Number(request.params.version_id)
        : undefined;
      try {
        const { version, commits, diffs } = await mergeRequestVersion(deps, project, mr, versionId);
        return presentMergeRequestDiffFull(version, commits, diffs);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) throw notFound('Merge Request Diff');
        throw error;
      }
    },
  );

  for (const subscribe of [true, false]) {
    app.post(
      `${path}/${subscribe ? 'subscribe' : 'unsubscribe'}`,
      async (request: MergeRequestRequest, reply) => {
        const { viewer, project, mr } = await load(request);
        await changeSubscription(deps, viewer, mergeRequestIssuable(mr), subscribe);
        return reply.status(201).send(await entity(project, viewer, mr));
      },
    );
  }

  app.get(`${path}/time_stats`, async (request: MergeRequestRequest) => {
    await load(request);
    return NO_TIME_STATS;
  });
}
