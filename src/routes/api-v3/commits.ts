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
import { commitActions, type CommitAction } from '../../services/repository/file-commits.ts';
import { commitDetail, commitDiff, listCommitsPage } from '../../views/commit-views.ts';

type ShaRequest = FastifyRequest<{ Params: { id: string; sha: string } }>;

function commitAction(item: Params): CommitAction {
  return {
    action: optionalString(item, 'action'),
    filePath: optionalString(item, 'file_path'),
    previousPath: optionalString(item, 'previous_path'),
    content: optionalString(item, 'content'),
    encoding: optionalString(item, 'encoding'),
  };
}

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
    return listCommitsPage(deps, project, {
      ref: optionalString(params, 'ref_name'),
      page: Math.max(0, Number(paging.page ?? 0)),
      perPage: perPage < 1 ? 20 : Math.min(perPage, MAX_PER_PAGE),
      since,
      until,
    });
  });

  app.get('/projects/:id/repository/commits/:sha', async (request: ShaRequest) => {
    const project = await loadProjectRepository(deps, request);
    return commitDetail(deps, project, request.params.sha);
  });

  app.get('/projects/:id/repository/commits/:sha/diff', async (request: ShaRequest) => {
    const project = await loadProjectRepository(deps, request);
    return commitDiff(deps, project, request.params.sha);
  });

  app.post('/projects/:id/repository/commits', async (request, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    const params = requestParams(request);
    const values = grapeParams(params, [
      { name: 'branch_name', kind: 'string', required: true },
      { name: 'commit_message', kind: 'string', required: true },
      { name: 'actions', kind: 'array', required: true },
      { name: 'author_email', kind: 'string', required: false },
      { name: 'author_name', kind: 'string', required: false },
    ]);
    const commitId = await commitActions(deps, pusher, {
      branchName: values.branch_name as string,
      commitMessage: values.commit_message as string,
      actions: (values.actions as Params[]).map(commitAction),
      authorEmail: values.author_email as string | undefined,
      authorName: values.author_name as string | undefined,
    });
    return reply.code(201).send(await commitDetail(deps, pusher, commitId));
  });
}
