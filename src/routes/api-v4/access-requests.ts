// v4's access requests (lib/api/access_requests.rb): v3's routes and rules, v4's UserBasic in the
// AccessRequester and Member entities, and 204 for a denial or withdrawal.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { grapeParams, requestParams } from '../../http/params.ts';
import { forbidden } from '../../errors.ts';
import { countAccessRequestList, listAccessRequestsPage } from '../../views/access-request-views.ts';
import { presentAccessRequester } from '../../presenters/api-v4/access-request.ts';
import { presentMember } from '../../presenters/api-v4/member.ts';
import {
  approveAccessRequest,
  removeAccessRequest,
  requestAccess,
} from '../../services/groups/access-requests.ts';
import { APPROVED_LEVEL, USER_ID, resolveRequestTarget } from '../api-v3/access-requests.ts';
import { noContent } from './conventions.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  for (const type of ['projects', 'groups'] as const) {
    app.get(`/${type}/:id/access_requests`, async (request, reply) => {
      const { target } = await resolveRequestTarget(deps, request, type);
      if (!target.canManage) throw forbidden();
      return paginate(
        request,
        reply,
        baseUrl,
        () => countAccessRequestList(deps, target),
        async (page) =>
          (await listAccessRequestsPage(deps, target, page)).map(({ user, request: row }) =>
            presentAccessRequester(user, row, baseUrl),
          ),
      );
    });

    app.post(`/${type}/:id/access_requests`, async (request, reply) => {
      const viewer = requireViewer(request);
      const { target, mayRequest } = await resolveRequestTarget(deps, request, type);
      const row = await requestAccess(deps, viewer, target, mayRequest);
      reply.status(201);
      return presentAccessRequester(viewer, row, baseUrl);
    });

    app.put(`/${type}/:id/access_requests/:user_id/approve`, async (request, reply) => {
      const viewer = requireViewer(request);
      const values = grapeParams(requestParams(request), [USER_ID, APPROVED_LEVEL]);
      const { target } = await resolveRequestTarget(deps, request, type);
      const { user, member } = await approveAccessRequest(
        deps,
        viewer,
        target,
        values.user_id as number,
        (values.access_level as number | null | undefined) ?? undefined,
      );
      reply.status(201);
      return presentMember(user, member, baseUrl);
    });

    app.delete(`/${type}/:id/access_requests/:user_id`, async (request, reply) => {
      const viewer = requireViewer(request);
      const { user_id } = grapeParams(requestParams(request), [USER_ID]);
      const { target } = await resolveRequestTarget(deps, request, type);
      await removeAccessRequest(deps, viewer, target, user_id as number);
      return noContent(reply);
    });
  }
}
