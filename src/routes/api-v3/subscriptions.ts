// Subscriptions (GitLab 8.13's lib/api/subscriptions.rb): subscribe to or unsubscribe from an issue
// (read access, 404 otherwise), a merge request (the right to update it, 403 otherwise, as 8.13.12; at
// `merge_requests/` and the deprecated `merge_request/`) or a label (by id or title); 304 when nothing would change.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadIssue, loadMergeRequestOf, loadProject } from '../../http/loaders.ts';
import { mergeRequestIssuable } from '../../services/merge-requests/collaboration.ts';
import { loadMergeRequestView } from '../../views/merge-request-views.ts';
import { presentIssue, presentLabel } from '../../presenters/api-v3/issue.ts';
import { presentMergeRequest } from '../../presenters/api-v3/merge-request.ts';
import { forbidden, notFound } from '../../errors.ts';
import { canUpdateMergeRequest } from '../../policies/merge-requests.ts';
import { changeSubscription, issueIssuable } from '../../services/issues/issues.ts';
import { changeLabelSubscription } from '../../services/issues/labels.ts';
import { loadIssueView } from '../../views/issue-views.ts';
import { findLabelByIdOrTitle, loadLabelView } from '../../views/label-views.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  for (const subscribe of [true, false]) {
    const method = subscribe ? 'post' : 'delete';
    const status = subscribe ? 201 : 200;

    app[method]('/projects/:id/issues/:issue_id/subscription', async (request, reply) => {
      const viewer = requireViewer(request);
      const { project, issue } = await loadIssue(deps, request);
      await changeSubscription(deps, viewer, issueIssuable(issue), subscribe);
      return reply
        .status(status)
        .send(presentIssue(await loadIssueView(deps, viewer, issue, project), baseUrl));
    });

    // Both the plural and the deprecated singular path, as 8.13 registered them.
    for (const base of ['merge_requests', 'merge_request']) {
      app[method](`/projects/:id/${base}/:merge_request_id/subscription`, async (request, reply) => {
        const { viewer, project, mr } = await loadMergeRequestOf(deps, request);
        // 8.13.12 finds the MR with :update_merge_request (developers, its author and assignee).
        if (!canUpdateMergeRequest(project.access, project, viewer, mr)) throw forbidden();
        await changeSubscription(deps, viewer, mergeRequestIssuable(mr), subscribe);
        return reply
          .status(status)
          .send(presentMergeRequest(await loadMergeRequestView(deps, project, viewer, mr), baseUrl));
      });
    }

    app[method]<{ Params: { label_id: string } }>(
      '/projects/:id/labels/:label_id/subscription',
      async (request, reply) => {
        const viewer = requireViewer(request);
        const loaded = await loadProject(deps, request);
        const label = await findLabelByIdOrTitle(deps, loaded.project.id, request.params.label_id);
        if (!label) throw notFound('Label');
        await changeLabelSubscription(deps, viewer, label, subscribe);
        return reply.status(status).send(presentLabel(await loadLabelView(deps, viewer, loaded, label)));
      },
    );
  }
}
