// GET/POST/PUT/DELETE /projects/:id/members[/:user_id] and /groups/:id/members[/:user_id]
// (reference/api-v3.md §7.11). Grape-DSL parameters: `{"error":"user_id is missing, access_level is
// missing"}`, checked before the project or group is looked up, as Grape did.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { optionalString, requestParams, type Params } from '../../http/params.ts';
import { ApiError, forbidden } from '../../http/errors.ts';
import { loadGroup, loadProject } from '../../http/loaders.ts';
import { canAdminProject } from '../../policies/access.ts';
import { canAdminGroup } from '../../policies/groups.ts';
import { countMembers, listMembers } from '../../db/repositories/memberships.ts';
import { presentMember } from '../../presenters/member.ts';
import {
  addMember,
  changeMember,
  getMember,
  removeMember,
  type MemberSource,
} from '../../services/members.ts';

type Kind = 'integer' | 'date';
interface Spec {
  name: string;
  kind: Kind;
  required: boolean;
}

/** Grape's coercion and presence checks, every problem reported in one `error` string. */
function grapeParams(params: Params, specs: Spec[]): Record<string, number | string | null | undefined> {
  const problems: string[] = [];
  const values: Record<string, number | string | null | undefined> = {};
  for (const spec of specs) {
    let raw: string | undefined;
    try {
      raw = optionalString(params, spec.name);
    } catch {
      problems.push(`${spec.name} is invalid`);
      continue;
    }
    if (raw === undefined || (spec.kind === 'integer' && raw.trim() === '')) {
      if (spec.required) problems.push(`${spec.name} is missing`);
      continue;
    }
    if (spec.kind === 'integer') {
      if (!/^\s*-?\d{1,9}\s*$/.test(raw)) problems.push(`${spec.name} is invalid`);
      else values[spec.name] = Number(raw);
    } else {
      const text = raw.trim();
      if (text === '') {
        values[spec.name] = null;
        continue;
      }
      // A date or a date-time; memberships keep the day (YYYY-MM-DD).
      const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
      const day = match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
      if (
        !day ||
        Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ||
        new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day
      )
        problems.push(`${spec.name} is invalid`);
      else values[spec.name] = day;
    }
  }
  if (problems.length > 0) throw new ApiError(400, { error: problems.join(', ') });
  return values;
}

const USER_ID: Spec = { name: 'user_id', kind: 'integer', required: true };
const ACCESS_LEVEL: Spec = { name: 'access_level', kind: 'integer', required: true };
const EXPIRES_AT: Spec = { name: 'expires_at', kind: 'date', required: false };

interface ResolvedSource {
  source: MemberSource;
  canManage: boolean;
}

async function resolveSource(
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
      const db = deps.db.kysely;
      const rows = await paginate(
        request,
        reply,
        baseUrl,
        () => countMembers(db, source.type, source.id, query),
        (page) => listMembers(db, source.type, source.id, page, query),
      );
      return rows.map(({ user, member }) => presentMember(user, member, baseUrl));
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
      // GitLab 8.13 kept project member deletion idempotent with this body.
      if (!removed) return { message: 'Access revoked', id: user_id };
      return presentMember(removed.user, removed.member, baseUrl);
    });
  }
}
