// POST /projects/:id/share: masters share a project with a group they can
// see; 201 ProjectGroupLink. Checks in GitLab's order: admin_project, required params, the group, the
// share lock, then the link's validations.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadGroupById, loadProject } from '../../http/loaders.ts';
import { forbidden, paramInvalid } from '../../errors.ts';
import { isCalendarDay, pathId, presentString, requestParams, requiredString } from '../../http/params.ts';
import { canAdminProject } from '../../policies/access.ts';
import { presentProjectGroupLink } from '../../presenters/api-v3/member.ts';
import { shareProject } from '../../services/projects/shares.ts';

function parseDate(value: string | undefined): string | null {
  if (value === undefined) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(value.trim());
  const day = match ? `${match[1]}-${match[2]}-${match[3]}` : '';
  if (!match || !isCalendarDay(day)) throw paramInvalid('expires_at');
  return day;
}

/** The share of POST /projects/:id/share (both versions): its checks in GitLab's order, then the link. */
export async function shareFromRequest(deps: Deps, request: FastifyRequest) {
  const viewer = requireViewer(request);
  const record = await loadProject(deps, request);
  if (!canAdminProject(record.access)) throw forbidden();
  const params = requestParams(request);
  const groupIdText = requiredString(params, 'group_id');
  const groupAccessText = requiredString(params, 'group_access');
  const expiresAt = parseDate(presentString(params, 'expires_at'));

  const { group } = await loadGroupById(deps, viewer, pathId(groupIdText.trim()));

  // A level that is not a number is simply not one of the allowed levels.
  const level = /^\s*\d{1,4}\s*$/.test(groupAccessText) ? Number(groupAccessText) : -1;
  return shareProject(deps, record, group, { groupAccess: level, expiresAt });
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/projects/:id/share', async (request, reply) => {
    const link = await shareFromRequest(deps, request);
    reply.status(201);
    return presentProjectGroupLink(link);
  });
}
