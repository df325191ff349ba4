// Commits of a project's repository (GitLab 8.13's lib/api/commits.rb): a page of history, one commit
// with stats and status, its diff; and a commit of several file actions on a branch (new in 8.13), made
// as a push under the same rules as `git push`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadProjectRepository, loadWritableRepository } from '../../http/loaders.ts';
import {
  grapeParams,
  optionalString,
  optionalTimestamp,
  requestParams,
  type Params,
} from '../../http/params.ts';
import {
  commitActions,
  type ActionsCommit,
  type CommitAction,
} from '../../services/repository/file-commits.ts';
import { commitDetail, commitDiff, listCommits, type CommitDetail } from '../../views/commit-views.ts';
import { presentRepoCommit, presentRepoCommitDetail } from '../../presenters/api-v3/commit.ts';
import { presentCommitDiff } from '../../presenters/api-v3/diff.ts';

type ShaRequest = FastifyRequest<{ Params: { id: string; sha: string } }>;

export function commitAction(item: Params): CommitAction {
  return {
    action: optionalString(item, 'action'),
    filePath: optionalString(item, 'file_path'),
    previousPath: optionalString(item, 'previous_path'),
    content: optionalString(item, 'content'),
    encoding: optionalString(item, 'encoding'),
  };
}

/**
 * POST …/repository/commits' parameters, every problem in one `error`; the branch under v3's
 * `branch_name` or v4's `branch`. `action` reads what else a version takes from each action.
 */
export function actionsCommit(
  params: Params,
  branchParam = 'branch_name',
  action: (item: Params) => CommitAction = commitAction,
): ActionsCommit {
  const values = grapeParams(params, [
    { name: branchParam, kind: 'string', required: true },
    { name: 'commit_message', kind: 'string', required: true },
    { name: 'actions', kind: 'array', required: true },
    { name: 'author_email', kind: 'string', required: false },
    { name: 'author_name', kind: 'string', required: false },
  ]);
  return {
    branchName: values[branchParam] as string,
    commitMessage: values.commit_message as string,
    actions: (values.actions as Params[]).map(action),
    authorEmail: values.author_email as string | undefined,
    authorName: values.author_name as string | undefined,
  };
}

const presentCommitDetail = ({ commit, stats, status }: CommitDetail) =>
  presentRepoCommitDetail(commit, stats, status);

/** GitLab had no upper bound on per_page here; a page stays bounded. */
const MAX_PER_PAGE = 100;

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/repository/commits', async (request) => {
    const project = await loadProjectRepository(deps, request);
    const params = requestParams(request);
    const paging = grapeParams(params, [
      { name: 'page', kind: 'integer', required: false },
      { name: 'per_page', kind: 'integer', required: false },
    ]);
    const since = optionalTimestamp(params, 'since');
    const until = optionalTimestamp(params, 'until');
    const perPage = Number(paging.per_page ?? 20);
    const limit = perPage < 1 ? 20 : Math.min(perPage, MAX_PER_PAGE);
    const page = Math.max(0, Number(paging.page ?? 0));
    const query = { ref: optionalString(params, 'ref_name'), since, until };
    const commits = await listCommits(deps, project, query, { offset: page * limit, limit });
    return commits.map(presentRepoCommit);
  });

  app.get('/projects/:id/repository/commits/:sha', async (request: ShaRequest) => {
    const project = await loadProjectRepository(deps, request);
    return presentCommitDetail(await commitDetail(deps, project, request.params.sha));
  });

  app.get('/projects/:id/repository/commits/:sha/diff', async (request: ShaRequest) => {
    const project = await loadProjectRepository(deps, request);
    return (await commitDiff(deps, project, request.params.sha)).map(presentCommitDiff);
  });

  app.post('/projects/:id/repository/commits', async (request, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    const commitId = await commitActions(deps, pusher, actionsCommit(requestParams(request)));
    return reply.code(201).send(presentCommitDetail(await commitDetail(deps, pusher, commitId)));
  });
}
