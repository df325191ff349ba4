// Commit statuses (GitLab 8.13's API::CommitStatuses): the builds and external statuses of a commit's
// pipelines, newest per name unless `all`; and other CI systems reporting their own status on a commit.
// Reporters (and signed-in callers of public or internal projects) read, developers report.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CiBuildRow, UserRow } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject } from '../../http/loaders.ts';
import { apiError, forbidden } from '../../errors.ts';
import { paginate } from '../../http/pagination.ts';
import {
  presentAttributes,
  presentString,
  requestParams,
  requiredString,
  toBoolean,
} from '../../http/params.ts';
import { canCreateCommitStatus, canReadCommitStatuses } from '../../policies/ci.ts';
import { isReportedState, reportCommitStatus } from '../../services/ci/commit-statuses.ts';
import { requireCommitId } from '../../views/repository-access.ts';
import {
  listCommitStatusesPage,
  countCommitStatusList,
  type CommitStatusFilter,
} from '../../views/commit-status-views.ts';
import { presentCommitStatus } from '../../presenters/api-v3/commit-status.ts';

/** A version's CommitStatus entity. */
type PresentStatus = (
  status: CiBuildRow,
  sha: string,
  author: UserRow | undefined,
  baseUrl: string,
) => unknown;

/** The list and the report, presented with `present` (v4 registers them with its entity). */
export function commitStatusHandlers(deps: Deps, present: PresentStatus) {
  const baseUrl = deps.config.externalUrl;
  return {
    list: async (request: FastifyRequest, reply: FastifyReply) => {
      const project = await loadProject(deps, request);
      if (!canReadCommitStatuses(request.viewer, project.access, project)) throw forbidden();
      const params = requestParams(request);
      const { commitId } = await requireCommitId(deps, project, String(params.sha));
      const filter: CommitStatusFilter = {
        projectId: project.project.id,
        sha: commitId,
        ref: presentString(params, 'ref'),
        stage: presentString(params, 'stage'),
        name: presentString(params, 'name'),
        all: toBoolean(params, 'all') === true,
      };
      const rows = await paginate(
        request,
        reply,
        baseUrl,
        () => countCommitStatusList(deps, filter),
        (page) => listCommitStatusesPage(deps, filter, page),
      );
      return rows.map(({ status, author }) => present(status, commitId, author, baseUrl));
    },
    create: async (request: FastifyRequest, reply: FastifyReply) => {
      const project = await loadProject(deps, request);
      const user = requireViewer(request);
      if (!canCreateCommitStatus(project.access)) throw forbidden();
      const params = requestParams(request);
      const state = requiredString(params, 'state');
      const attributes = presentAttributes(params, ['target_url', 'description']);
      const { commitId } = await requireCommitId(deps, project, String(params.sha));
      if (!isReportedState(state)) throw apiError(400, 'invalid state');
      const { status } = await reportCommitStatus(deps, project, user, {
        sha: commitId,
        state,
        ref: presentString(params, 'ref'),
        name: presentString(params, 'name') ?? presentString(params, 'context') ?? 'default',
        targetUrl: attributes.target_url,
        description: attributes.description,
      });
      return reply.status(201).send(present(status, commitId, user, baseUrl));
    },
  };
}

export function register(app: FastifyInstance, deps: Deps): void {
  const handlers = commitStatusHandlers(deps, presentCommitStatus);
  app.get('/projects/:id/repository/commits/:sha/statuses', handlers.list);
  app.post('/projects/:id/statuses/:sha', handlers.create);
}
