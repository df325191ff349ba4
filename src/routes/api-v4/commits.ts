// Commits of a project's repository as v4 has them (GitLab's lib/api/commits.rb): history paginated from
// page 1 with totals (`path`, `all`, `with_stats`, `first_parent`), one commit, a commit of file actions
// (v4's `branch`, `start_branch`, the chmod action, `last_commit_id`, `execute_filemode`), its diff and
// refs paginated, a revert onto a branch; and v3's comment and status handlers with v4's entities.
// Loaders, views, services: v3's.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadProjectRepository, loadWritableRepository } from '../../http/loaders.ts';
import { parsePage, setPaginationHeaders } from '../../http/pagination.ts';
import {
  optionalBoolean,
  optionalOneOf,
  optionalString,
  optionalTimestamp,
  requestParams,
  type Params,
} from '../../http/params.ts';
import { paramValueInvalid } from '../../errors.ts';
import { commitActions } from '../../services/repository/file-commits.ts';
import { revertCommit } from '../../services/repository/commit-revert.ts';
import { requireParams } from './conventions.ts';
import {
  commitDetail,
  commitDiff,
  commitRefs,
  commitStats,
  countCommits,
  listCommits,
} from '../../views/commit-views.ts';
import {
  presentCommit,
  presentCommitDetail,
  presentCommitRef,
  presentCommitWithStats,
} from '../../presenters/api-v4/commit.ts';
import { presentCommitStatus } from '../../presenters/api-v4/commit-status.ts';
import { presentDiff } from '../../presenters/api-v4/diff.ts';
import { actionsCommit, commitAction } from '../api-v3/commits.ts';
import { COMMIT_COMMENTS_PATH, commitCommentHandlers } from '../api-v3/commit-comments.ts';
import { commitStatusHandlers } from '../api-v3/commit-statuses.ts';

type ShaRequest = FastifyRequest<{ Params: { id: string; sha: string } }>;

/** One action as v4 takes it: v3's fields, and the file's last commit and executable flag. */
function v4Action(item: Params) {
  return {
    ...commitAction(item),
    lastCommitId: optionalString(item, 'last_commit_id'),
    executeFilemode: optionalBoolean(item, 'execute_filemode'),
  };
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  app.get('/projects/:id/repository/commits', async (request, reply) => {
    const project = await loadProjectRepository(deps, request);
    const params = requestParams(request);
    const query = {
      ref: optionalString(params, 'ref_name'),
      since: optionalTimestamp(params, 'since'),
      until: optionalTimestamp(params, 'until'),
      path: optionalString(params, 'path'),
      all: optionalBoolean(params, 'all') ?? false,
      firstParent: optionalBoolean(params, 'first_parent') ?? false,
    };
    const withStats = optionalBoolean(params, 'with_stats') ?? false;
    const page = parsePage(request);
    const [total, commits] = await Promise.all([
      countCommits(deps, project, query),
      listCommits(deps, project, query, page),
    ]);
    setPaginationHeaders(request, reply, baseUrl, page, total);
    if (!withStats) return commits.map((commit) => presentCommit(commit, project, baseUrl));
    const stats = await commitStats(deps, project, commits);
    return commits.map((commit, index) => presentCommitWithStats(commit, stats[index], project, baseUrl));
  });

  app.get('/projects/:id/repository/commits/:sha', async (request: ShaRequest) => {
    const project = await loadProjectRepository(deps, request);
    return presentCommitDetail(await commitDetail(deps, project, request.params.sha), project, baseUrl);
  });

  app.get('/projects/:id/repository/commits/:sha/diff', async (request: ShaRequest, reply) => {
    const project = await loadProjectRepository(deps, request);
    const diffs = await commitDiff(deps, project, request.params.sha);
    const page = parsePage(request);
    setPaginationHeaders(request, reply, baseUrl, page, diffs.length);
    return diffs.slice(page.offset, page.offset + page.limit).map(presentDiff);
  });

  app.get('/projects/:id/repository/commits/:sha/refs', async (request: ShaRequest, reply) => {
    const project = await loadProjectRepository(deps, request);
    const type =
      optionalOneOf(requestParams(request), 'type', ['branch', 'tag', 'all'] as const, () =>
        paramValueInvalid('type'),
      ) ?? 'branch';
    const refs = await commitRefs(deps, project, request.params.sha, type);
    const page = parsePage(request);
    setPaginationHeaders(request, reply, baseUrl, page, refs.length);
    return refs.slice(page.offset, page.offset + page.limit).map(presentCommitRef);
  });

  // Revert onto `branch` (required): 201 the new commit; 400 GitLab's message when it conflicts or is empty.
  app.post('/projects/:id/repository/commits/:sha/revert', async (request: ShaRequest, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    const params = requestParams(request);
    requireParams(params, 'branch');
    const commitId = await revertCommit(deps, pusher, request.params.sha, String(params.branch));
    const detail = await commitDetail(deps, pusher, commitId);
    return reply.code(201).send(presentCommitDetail(detail, pusher, baseUrl));
  });

  app.post('/projects/:id/repository/commits', async (request, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    const params = requestParams(request);
    const commitId = await commitActions(deps, pusher, {
      ...actionsCommit(params, 'branch', v4Action),
      startBranch: optionalString(params, 'start_branch'),
      v4Actions: true,
    });
    const detail = await commitDetail(deps, pusher, commitId);
    return reply.code(201).send(presentCommitDetail(detail, pusher, baseUrl));
  });

  const comments = commitCommentHandlers(deps, true);
  app.get(COMMIT_COMMENTS_PATH, comments.list);
  app.post(COMMIT_COMMENTS_PATH, comments.create);

  const statuses = commitStatusHandlers(deps, presentCommitStatus);
  app.get('/projects/:id/repository/commits/:sha/statuses', statuses.list);
  app.post('/projects/:id/statuses/:sha', statuses.create);
}
