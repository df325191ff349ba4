// GET/POST /projects/:id/access_requests and /groups/:id/access_requests, PUT …/:user_id/approve and
// DELETE …/:user_id (GitLab 8.13's lib/api/access_requests.rb). Listing, approving and denying take the
// right to manage members (403 otherwise); anyone who can see the project or group may ask, unless
// already a member (403) or already asking (400); requesters may withdraw their own.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessRequestRow, MemberRow, UserRow } from '../../db/types.ts';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { grapeParams, requestParams, type GrapeParam } from '../../http/params.ts';
import { forbidden } from '../../errors.ts';
import { loadGroup, loadProject } from '../../http/loaders.ts';
import { canAdminProject } from '../../policies/access.ts';
import { canAdminGroup } from '../../policies/groups.ts';
import { canRequestGroupAccess, canRequestProjectAccess } from '../../policies/access-requests.ts';
import { countAccessRequestList, listAccessRequestsPage } from '../../views/access-request-views.ts';
import {
  presentAccessRequester,
  presentDeniedAccessRequest,
} from '../../presenters/api-v3/access-request.ts';
import { presentMember } from '../../presenters/api-v3/member.ts';
import {
  approveAccessRequest,
  groupRequestTarget,
  projectRequestTarget,
  removeAccessRequest,
  requestAccess,
  type AccessRequestTarget,
} from '../../services/groups/access-requests.ts';

const USER_ID: GrapeParam = { name: 'user_id', kind: 'integer', required: true };
const APPROVED_LEVEL: GrapeParam = { name: 'access_level', kind: 'integer', required: false };

interface ResolvedTarget {
  target: AccessRequestTarget;
  /** Whether the caller may ask to join. */
  mayRequest: boolean;
}

async function resolveRequestTarget(
  deps: Deps,
  request: FastifyRequest,
  type: 'projects' | 'groups',
): Promise<ResolvedTarget> {
  const viewer = requireViewer(request);
  const baseUrl = deps.config.externalUrl;
  if (type === 'projects') {
    const loaded = await loadProject(deps, request);
    return {
      target: projectRequestTarget(baseUrl, loaded, canAdminProject(loaded.access)),
      mayRequest: canRequestProjectAccess(viewer, loaded, loaded.access),
    };
  }
  const loaded = await loadGroup(deps, request);
  return {
    target: groupRequestTarget(baseUrl, loaded.group, canAdminGroup(loaded.access)),
    mayRequest: canRequestGroupAccess(viewer, loaded.group, loaded.access),
  };
}

/** What a version answers with; the routes, rules and service calls are the same in both. */
export interface AccessRequestWire {
  presentRequester: (user: UserRow, request: AccessRequestRow, baseUrl: string) => unknown;
  presentMember: (user: UserRow, member: MemberRow, baseUrl: string) => unknown;
  /** The answer to a denial or withdrawal. */
  answerRemoval: (reply: FastifyReply, removed: AccessRequestRow) => unknown;
}

/** Both versions' access-request routes on projects and groups, answered through `wire`. */
export function registerAccessRequests(app: FastifyInstance, deps: Deps, wire: AccessRequestWire): void {
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
            wire.presentRequester(user, row, baseUrl),
          ),
      );
    });

    app.post(`/${type}/:id/access_requests`, async (request, reply) => {
      const viewer = requireViewer(request);
      const { target, mayRequest } = await resolveRequestTarget(deps, request, type);
      const row = await requestAccess(deps, viewer, target, mayRequest);
      reply.status(201);
      return wire.presentRequester(viewer, row, baseUrl);
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
      return wire.presentMember(user, member, baseUrl);
    });

    app.delete(`/${type}/:id/access_requests/:user_id`, async (request, reply) => {
      const viewer = requireViewer(request);
      const { user_id } = grapeParams(requestParams(request), [USER_ID]);
      const { target } = await resolveRequestTarget(deps, request, type);
      const { request: removed } = await removeAccessRequest(deps, viewer, target, user_id as number);
      return wire.answerRemoval(reply, removed);
    });
  }
}

/** v3: 8.13's entities, and a denial answers the removed request as the members row it was. */
export function register(app: FastifyInstance, deps: Deps): void {
  registerAccessRequests(app, deps, {
    presentRequester: presentAccessRequester,
    presentMember,
    answerRemoval: (_reply, removed) => presentDeniedAccessRequest(removed),
  });
}
