// Merge requests (GitLab 8.13's lib/api/merge_requests.rb). `:merge_request_id` is the global id, and
// the routes of one MR answer at both `merge_requests/:id` and the deprecated `merge_request/:id`, which
// the clients of the time called. Every route needs a user; reading needs read_merge_request (else 403).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import {
  type LoadedProject,
  loadMergeRequestOf,
  loadMergeRequestProject,
  readableProjectByIdParam,
} from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import {
  optionalInteger,
  optionalLabelTitles,
  optionalLink,
  optionalOneOf,
  optionalString,
  optionalStringList,
  pathId,
  requestParams,
  toBoolean,
} from '../../http/params.ts';
import { presentRepoCommit } from '../../presenters/api-v3/commit.ts';
import { presentIssue } from '../../presenters/api-v3/issue.ts';
import {
  presentMergeRequest,
  presentMergeRequestChanges,
  presentMergeRequestDiff,
  presentMergeRequestDiffFull,
  presentMergeRequestRow,
} from '../../presenters/api-v3/merge-request.ts';
import {
  createMergeRequest,
  deleteMergeRequest,
  findMergeRequestOf,
  updateMergeRequestFields,
} from '../../services/merge-requests/merge-requests.ts';
import { mergeMergeRequest } from '../../services/merge-requests/merge.ts';
import { cancelMergeWhenBuildSucceeds } from '../../services/merge-requests/merge-when-build-succeeds.ts';
import {
  countMergeRequestsOf,
  listMergeRequestsOf,
  loadMergeRequestView,
  mergeRequestChanges,
  mergeRequestClosesIssues,
  mergeRequestCommits,
  mergeRequestListQuery,
  mergeRequestVersion,
  mergeRequestVersions,
} from '../../views/merge-request-views.ts';
import { loadIssueViews } from '../../views/issue-views.ts';
import type { MergeRequestRow, ProjectRecord, UserRow } from '../../db/types.ts';
import { paramValueInvalid, recordNotFound } from '../../errors.ts';

type MergeRequestRequest = FastifyRequest<{ Params: { id: string; merge_request_id: string } }>;

/** `iid` as one value or a list; a value that is no integer matches nothing. */
function iidFilter(request: FastifyRequest): number[] | null {
  const values = optionalStringList(requestParams(request), 'iid');
  if (values === undefined) return null;
  return values.map((value) => (/^\s*\d{1,10}\s*$/.test(value) ? Number(value) : -1));
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  /** The MergeRequest entity of one MR, from its view. */
  const entity = async (target: ProjectRecord, viewer: UserRow, mr: MergeRequestRow) =>
    presentMergeRequest(await loadMergeRequestView(deps, target, viewer, mr), baseUrl);

  app.get('/projects/:id/merge_requests', async (request, reply) => {
    const { viewer, project } = await loadMergeRequestProject(deps, request);
    const params = requestParams(request);
    const query = mergeRequestListQuery(project, {
      state: optionalString(params, 'state'),
      iids: iidFilter(request),
      orderBy: optionalString(params, 'order_by'),
      sort: optionalString(params, 'sort'),
    });
    return paginate(
      request,
      reply,
      baseUrl,
      () => countMergeRequestsOf(deps, query),
      async (page) =>
        (await listMergeRequestsOf(deps, project, viewer, query, page.offset, page.limit)).map((view) =>
          presentMergeRequest(view, baseUrl),
        ),
    );
  });

  app.post('/projects/:id/merge_requests', async (request, reply) => {
    const { viewer, project: source } = await loadMergeRequestProject(deps, request);
    const params = requestParams(request);
    const targetId = optionalInteger(params, 'target_project_id');
    let target: LoadedProject = source;
    if (targetId !== undefined && targetId !== source.project.id) {
      const found = await readableProjectByIdParam(deps, viewer, targetId);
      if (!found) throw recordNotFound();
      target = found;
    }
    const mr = await createMergeRequest(deps, viewer, source, target, {
      source_branch: optionalString(params, 'source_branch'),
      target_branch: optionalString(params, 'target_branch'),
      title: optionalString(params, 'title'),
      description: optionalString(params, 'description'),
      assignee_id: optionalInteger(params, 'assignee_id'),
      milestone_id: optionalLink(params, 'milestone_id'),
      labels: optionalLabelTitles(params),
    });
    reply.code(201);
    return entity(target, viewer, mr);
  });

  app.delete('/projects/:id/merge_requests/:merge_request_id', async (request: MergeRequestRequest) => {
    const { project } = await loadMergeRequestProject(deps, request);
    const mr = await findMergeRequestOf(deps, project, pathId(request.params.merge_request_id));
    return presentMergeRequestRow(await deleteMergeRequest(deps, project, mr));
  });

  // Versions (8.12's lib/api/merge_request_diffs.rb): only under `merge_requests`, the whole list unpaginated.
  type VersionRequest = FastifyRequest<{
    Params: { id: string; merge_request_id: string; version_id: string };
  }>;
  app.get('/projects/:id/merge_requests/:merge_request_id/versions', async (request: MergeRequestRequest) => {
    const { mr } = await loadMergeRequestOf(deps, request);
    return (await mergeRequestVersions(deps, mr)).map(presentMergeRequestDiff);
  });
  app.get(
    '/projects/:id/merge_requests/:merge_request_id/versions/:version_id',
    async (request: VersionRequest) => {
      const { project, mr } = await loadMergeRequestOf(deps, request);
      const { version, commits, diffs } = await mergeRequestVersion(
        deps,
        project,
        mr,
        pathId(request.params.version_id),
      );
      return presentMergeRequestDiffFull(version, commits, diffs);
    },
  );

  for (const base of ['merge_requests', 'merge_request']) {
    const path = `/projects/:id/${base}/:merge_request_id`;

    app.get(path, async (request: MergeRequestRequest) => {
      const { viewer, project, mr } = await loadMergeRequestOf(deps, request);
      return entity(project, viewer, mr);
    });

    app.get(`${path}/commits`, async (request: MergeRequestRequest) => {
      const { project, mr } = await loadMergeRequestOf(deps, request);
      return (await mergeRequestCommits(deps, project, mr)).map(presentRepoCommit);
    });

    app.get(`${path}/changes`, async (request: MergeRequestRequest) => {
      const { viewer, project, mr } = await loadMergeRequestOf(deps, request);
      const { view, diffs } = await mergeRequestChanges(deps, project, viewer, mr);
      return presentMergeRequestChanges(view, baseUrl, diffs);
    });

    // 8.13.0 read no access here (8.13.12 added it); the MR's project must be readable, as everywhere.
    app.get(`${path}/closes_issues`, async (request: MergeRequestRequest, reply) => {
      const { viewer, project, mr } = await loadMergeRequestOf(deps, request);
      const issues = await mergeRequestClosesIssues(deps, project, viewer, mr);
      return paginate(
        request,
        reply,
        baseUrl,
        async () => issues.length,
        async (page) =>
          (
            await loadIssueViews(deps, viewer, issues.slice(page.offset, page.offset + page.limit), [project])
          ).map((view) => presentIssue(view, baseUrl)),
      );
    });

    app.put(path, async (request: MergeRequestRequest) => {
      const { viewer, project, mr } = await loadMergeRequestOf(deps, request);
      const params = requestParams(request);
      const updated = await updateMergeRequestFields(deps, viewer, project, mr, {
        title: optionalString(params, 'title'),
        description: optionalString(params, 'description'),
        target_branch: optionalString(params, 'target_branch'),
        source_branch: optionalString(params, 'source_branch'),
        assignee_id: optionalInteger(params, 'assignee_id'),
        milestone_id: optionalLink(params, 'milestone_id'),
        labels: optionalLabelTitles(params),
        state_event: optionalOneOf(params, 'state_event', ['close', 'reopen', 'merge'] as const, () =>
          paramValueInvalid('state_event'),
        ),
      });
      return entity(project, viewer, updated);
    });

    app.put(`${path}/merge`, async (request: MergeRequestRequest) => {
      const { viewer, project, mr } = await loadMergeRequestOf(deps, request);
      const params = requestParams(request);
      const merged = await mergeMergeRequest(deps, viewer, project, mr, {
        merge_commit_message: optionalString(params, 'merge_commit_message'),
        should_remove_source_branch: optionalString(params, 'should_remove_source_branch'),
        sha: optionalString(params, 'sha'),
        merge_when_build_succeeds: toBoolean(params, 'merge_when_build_succeeds') === true,
      });
      return entity(project, viewer, merged);
    });

    // POST, not the PUT of 8.13's docs; 8.13.0 answered 500 here (a misspelt constant), this is the 201
    // with the service's result that it meant.
    app.post(`${path}/cancel_merge_when_build_succeeds`, async (request: MergeRequestRequest, reply) => {
      const { viewer, project, mr } = await loadMergeRequestOf(deps, request);
      const result = await cancelMergeWhenBuildSucceeds(deps, viewer, project, mr);
      reply.code(201);
      return result;
    });
  }
}
