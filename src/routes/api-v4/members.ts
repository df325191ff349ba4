// Members of projects and groups in v4: list (paginated), `/members/all` (a project's own members with
// its group's, one entry per user at the highest level), show, add (409 on a duplicate, projects too),
// change, remove (204). The project or group is resolved, and the Grape parameters read, as in v3.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate, paginateLoaded } from '../../http/pagination.ts';
import { grapeParams, optionalString, requestParams, type GrapeParam } from '../../http/params.ts';
import { forbidden, recordNotFound } from '../../errors.ts';
import { loadProject } from '../../http/loaders.ts';
import {
  countMemberList,
  listInheritedMembers,
  listMembersPage,
  type MemberListSource,
} from '../../views/member-views.ts';
import { presentMember } from '../../presenters/api-v4/member.ts';
import { addMember, changeMember, getMember, removeMember } from '../../services/groups/members.ts';
import { resolveSource } from '../api-v3/members.ts';
import { noContent } from './conventions.ts';
import type { MemberWithUser } from '../../db/types.ts';

const USER_ID: GrapeParam = { name: 'user_id', kind: 'integer', required: true };
const ACCESS_LEVEL: GrapeParam = { name: 'access_level', kind: 'integer', required: true };
const EXPIRES_AT: GrapeParam = { name: 'expires_at', kind: 'date', required: false };

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const present = ({ user, member }: MemberWithUser) => presentMember(user, member, baseUrl);

  for (const type of ['projects', 'groups'] as const) {
    app.get(`/${type}/:id/members`, async (request, reply) => {
      requireViewer(request);
      const query = optionalString(requestParams(request), 'query');
      const { source } = await resolveSource(deps, request, type);
      return paginate(
        request,
        reply,
        baseUrl,
        () => countMemberList(deps, source, query),
        async (page) => (await listMembersPage(deps, source, query, page)).map(present),
      );
    });

    // The sources whose members count: a project's own and its group's (no subgroups, so no more).
    const inheritedSources = async (request: Parameters<typeof loadProject>[1]) => {
      const { source } = await resolveSource(deps, request, type);
      const sources: MemberListSource[] = [source];
      if (type === 'projects') {
        const { namespace } = await loadProject(deps, request);
        if (namespace.type === 'Group') sources.push({ type: 'Namespace', id: namespace.id });
      }
      return sources;
    };

    app.get(`/${type}/:id/members/all`, async (request, reply) => {
      requireViewer(request);
      const query = optionalString(requestParams(request), 'query');
      const members = await listInheritedMembers(deps, await inheritedSources(request), query);
      return paginateLoaded(request, reply, baseUrl, members).map(present);
    });

    app.get(`/${type}/:id/members/all/:user_id`, async (request) => {
      requireViewer(request);
      const { user_id } = grapeParams(requestParams(request), [USER_ID]);
      const members = await listInheritedMembers(deps, await inheritedSources(request), undefined);
      const found = members.find((entry) => entry.user.id === user_id);
      if (!found) throw recordNotFound();
      return present(found);
    });

    app.get(`/${type}/:id/members/:user_id`, async (request) => {
      requireViewer(request);
      const { user_id } = grapeParams(requestParams(request), [USER_ID]);
      const { source } = await resolveSource(deps, request, type);
      return present(await getMember(deps, source, user_id as number));
    });

    app.post(`/${type}/:id/members`, async (request, reply) => {
      const viewer = requireViewer(request);
      const values = grapeParams(requestParams(request), [USER_ID, ACCESS_LEVEL, EXPIRES_AT]);
      const { source, canManage } = await resolveSource(deps, request, type);
      if (!canManage) throw forbidden();
      const input = {
        userId: values.user_id as number,
        accessLevel: values.access_level as number,
        expiresAt: (values.expires_at as string | null | undefined) ?? null,
      };
      const added = await addMember(deps, viewer, source, input, true);
      return reply.status(201).send(present(added));
    });

    app.put(`/${type}/:id/members/:user_id`, async (request) => {
      requireViewer(request);
      const values = grapeParams(requestParams(request), [USER_ID, ACCESS_LEVEL, EXPIRES_AT]);
      const { source, canManage } = await resolveSource(deps, request, type);
      if (!canManage) throw forbidden();
      const changed = await changeMember(deps, source, values.user_id as number, {
        accessLevel: values.access_level as number,
        expiresAt: values.expires_at === null ? undefined : (values.expires_at as string | undefined),
      });
      return present(changed);
    });

    app.delete(`/${type}/:id/members/:user_id`, async (request, reply) => {
      const viewer = requireViewer(request);
      const { user_id } = grapeParams(requestParams(request), [USER_ID]);
      const { source, canManage } = await resolveSource(deps, request, type);
      const removed = await removeMember(deps, viewer, source, user_id as number, canManage);
      if (!removed) throw recordNotFound();
      return noContent(reply);
    });
  }
}
