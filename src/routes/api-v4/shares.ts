// v4's sharing: POST /projects/:id/share as v3's (201 ProjectGroupLink), and DELETE
// /projects/:id/share/:group_id (masters; 204, 404 when the project is not shared with the group).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadProject } from '../../http/loaders.ts';
import { pathInteger, presentString, requestParams } from '../../http/params.ts';
import { forbidden, paramsMissing } from '../../errors.ts';
import { canAdminProject } from '../../policies/access.ts';
import { presentProjectGroupLink } from '../../presenters/api-v3/member.ts';
import { unshareProject } from '../../services/projects/shares.ts';
import { shareFromRequest } from '../api-v3/shares.ts';
import { noContent } from './conventions.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/projects/:id/share', async (request, reply) => {
    // Grape validates the declared parameters before the route runs: v4's 400 wording, first.
    const params = requestParams(request);
    const missing = ['group_id', 'group_access'].filter((name) => presentString(params, name) === undefined);
    if (missing.length > 0) throw paramsMissing(...missing);
    const link = await shareFromRequest(deps, request);
    return reply.status(201).send(presentProjectGroupLink(link));
  });

  app.delete('/projects/:id/share/:group_id', async (request, reply) => {
    const record = await loadProject(deps, request);
    if (!canAdminProject(record.access)) throw forbidden();
    await unshareProject(deps, record, pathInteger(requestParams(request), 'group_id'));
    return noContent(reply);
  });
}
