// Access requests from the pages, at GitLab 8.13's member paths: POST …/request_access (a signed-in
// non-member asks to join a project or group that allows it), …/leave (8.13's DELETE: here it withdraws
// the caller's own request), and for who manages members …/:user_id/approve_access_request (Grant, with
// an access level) and …/:user_id/deny_access_request (8.13's DELETE of the requester). Everything goes
// through the access request service the API uses, so the mails to masters and owners and the "joined"
// event and system hook of an approval come with it. A hidden project or group is a 404.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { hiddenAsks, loadGroup, loadPageProject } from '../../http/loaders.ts';
import { optionalString, pathId, requestParams } from '../../http/params.ts';
import { canAdminProject } from '../../policies/access.ts';
import { canAdminGroup } from '../../policies/groups.ts';
import { canRequestGroupAccess, canRequestProjectAccess } from '../../policies/access-requests.ts';
import {
  approveAccessRequest,
  groupRequestTarget,
  projectRequestTarget,
  removeAccessRequest,
  requestAccess,
  type AccessRequestTarget,
} from '../../services/groups/access-requests.ts';
import { projectFullPath } from '../../domain/paths.ts';
import { signedIn } from './page-params.ts';

/** The page a button or form returns to, and where the members are. */
interface Resolved {
  target: AccessRequestTarget;
  mayRequest: boolean;
  /** The project's or group's page. */
  home: string;
  /** Its members page. */
  members: string;
}

function levelOf(request: FastifyRequest): number {
  const text = (optionalString(requestParams(request), 'access_level') ?? '').trim();
  return /^\d{1,4}$/.test(text) ? Number(text) : -1;
}

export function registerAccessRequestPages(web: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;

  const project = async (request: FastifyRequest): Promise<Resolved> => {
    const viewer = signedIn(request);
    const loaded = await loadPageProject(deps, request);
    const home = `/${projectFullPath(loaded)}`;
    return {
      target: projectRequestTarget(baseUrl, loaded, canAdminProject(loaded.access)),
      mayRequest: canRequestProjectAccess(viewer, loaded, loaded.access),
      home,
      members: `${home}/project_members`,
    };
  };
  const group = async (request: FastifyRequest): Promise<Resolved> => {
    const viewer = signedIn(request);
    const loaded = await hiddenAsks(request, () =>
      loadGroup(deps, request, (request.params as { group: string }).group),
    );
    const home = `/groups/${loaded.group.path}`;
    return {
      target: groupRequestTarget(baseUrl, loaded.group, canAdminGroup(loaded.access)),
      mayRequest: canRequestGroupAccess(viewer, loaded.group, loaded.access),
      home,
      members: `${home}/group_members`,
    };
  };

  const userIdOf = (request: FastifyRequest): number => {
    const id = pathId((request.params as { user_id: string }).user_id);
    if (id === undefined) throw notFound();
    return id;
  };

  const routes = (base: string, resolve: (request: FastifyRequest) => Promise<Resolved>) => {
    web.post(`${base}/request_access`, async (request, reply: FastifyReply) => {
      const viewer = signedIn(request);
      const resolved = await resolve(request);
      await requestAccess(deps, viewer, resolved.target, resolved.mayRequest);
      return reply.redirect(`${resolved.home}?done=access_requested`, 302);
    });

    web.post(`${base}/leave`, async (request, reply) => {
      const viewer = signedIn(request);
      const resolved = await resolve(request);
      await removeAccessRequest(deps, viewer, resolved.target, viewer.id);
      return reply.redirect(`${resolved.home}?done=access_withdrawn`, 302);
    });

    web.post(`${base}/:user_id/approve_access_request`, async (request, reply) => {
      const viewer = signedIn(request);
      const resolved = await resolve(request);
      await approveAccessRequest(deps, viewer, resolved.target, userIdOf(request), levelOf(request));
      return reply.redirect(`${resolved.members}?done=access_granted`, 302);
    });

    web.post(`${base}/:user_id/deny_access_request`, async (request, reply) => {
      const viewer = signedIn(request);
      const resolved = await resolve(request);
      const userId = userIdOf(request);
      // Only who manages members denies; a requester withdraws through …/leave.
      if (!resolved.target.canManage) throw notFound();
      await removeAccessRequest(deps, viewer, resolved.target, userId);
      return reply.redirect(`${resolved.members}?done=access_denied`, 302);
    });
  };

  routes('/:namespace/:project/project_members', project);
  routes('/groups/:group/group_members', group);
}
