// GET/POST/PUT/DELETE /projects/:id/members[/:user_id] and /groups/:id/members[/:user_id]. Grape-DSL
// parameters: `{"error":"user_id is missing, access_level is missing"}`, checked before the project or
// group is looked up, as Grape did.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { grapeParams, optionalString, requestParams, type GrapeParam } from '../../http/params.ts';
import { forbidden } from '../../errors.ts';
import { loadGroup, loadProject } from '../../http/loaders.ts';
import { canAdminProject } from '../../policies/access.ts';
import { canAdminGroup } from '../../policies/groups.ts';
import { countMemberList, listMembersPage } from '../../views/member-views.ts';
import { presentAccessRevoked, presentMember } from '../../presenters/api-v3/member.ts';
import {
  addMember,
  changeMember,
  getMember,
  removeMember,
  type MemberSource,
} from '../../services/groups/members.ts';

const USER_ID: GrapeParam = { name: 'user_id', kind: 'integer', required: true };
const ACCESS_LEVEL: GrapeParam = { name: 'access_level', kind: 'integer', required: true };
const EXPIRES_AT: GrapeParam = { name: 'expires_at', kind: 'date', required: false };

export interface ResolvedSource {
  source: MemberSource;
  canManage: boolean;
}

export async function resolveSource(
  deps: Deps,
  request: FastifyRequest,
  type: 'projects' | 'groups',
): Promise<ResolvedSource> {
  if (type === 'projects') {
    const loaded = await loadProject(deps, request);
    return {
      source: {
        type: 'Project',
        id: loaded.project.id,
        ownerId: loaded.namespace.type === 'Group' ? null : loaded.namespace.owner_id,
      },
      canManage: canAdminProject(loaded.access),
    };
  }
  const loaded = await loadGroup(deps, request);
  return {
    source: { type: 'Namespace', id: loaded.group.id, ownerId: null },
    canManage: canAdminGroup(loaded.access),
  };
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
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
        async (page) =>
          (await listMembersPage(deps, source, query, page)).map(({ user, member }) =>
            presentMember(user, member, baseUrl),
          ),
      );
    });

    app.get(`/${type}/:id/members/:user_id`, async (request) => {
      requireViewer(request);
      const { user_id } = grapeParams(requestParams(request), [USER_ID]);
      const { source } = await resolveSource(deps, request, type);
      const { user, member } = await getMember(deps, source, user_id as number);
      return presentMember(user, member, baseUrl);
    });

    app.post(`/${type}/:id/members`, async (request, reply) => {
      const viewer = requireViewer(request);
      const values = grapeParams(requestParams(request), [USER_ID, ACCESS_LEVEL, EXPIRES_AT]);
      const { source, canManage } = await resolveSource(deps, request, type);
      if (!canManage) throw forbidden();
      const { user, member } = await addMember(deps, viewer, source, {
        userId: values.user_id as number,
        accessLevel: values.access_level as number,
        expiresAt: (values.expires_at as string | null | undefined) ?? null,
      });
      reply.status(201);
      return presentMember(user, member, baseUrl);
    });

    app.put(`/${type}/:id/members/:user_id`, async (request) => {
      requireViewer(request);
      const values = grapeParams(requestParams(request), [USER_ID, ACCESS_LEVEL, EXPIRES_AT]);
      const { source, canManage } = await resolveSource(deps, request, type);
      if (!canManage) throw forbidden();
      const { user, member } = await changeMember(deps, source, values.user_id as number, {
        accessLevel: values.access_level as number,
        // A blank expires_at leaves the date alone (attributes_for_keys dropped blanks).
        expiresAt: values.expires_at === null ? undefined : (values.expires_at as string | undefined),
      });
      return presentMember(user, member, baseUrl);
    });

    app.delete(`/${type}/:id/members/:user_id`, async (request) => {
      const viewer = requireViewer(request);
      const { user_id } = grapeParams(requestParams(request), [USER_ID]);
      const { source, canManage } = await resolveSource(deps, request, type);
      const removed = await removeMember(deps, viewer, source, user_id as number, canManage);
      if (!removed) return presentAccessRevoked(user_id);
      return presentMember(removed.user, removed.member, baseUrl);
    });
  }
}
