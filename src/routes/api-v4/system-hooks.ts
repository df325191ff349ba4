// v4's system hooks (lib/api/system_hooks.rb), administrators only: list (paginated), add (201; the url
// only: Labrador's system hooks get pushes and tag pushes as 8.13's did), one hook (today's GET
// /hooks/:id; v3's GET tested it), test (POST /hooks/:id, the same test delivery as v3's), delete (204).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/auth.ts';
import { paginateLoaded } from '../../http/pagination.ts';
import { optionalString, pathInteger, requestParams, type Params } from '../../http/params.ts';
import { createSystemHook, destroySystemHook, testSystemHook } from '../../services/hooks/system-hooks.ts';
import { loadSystemHookOr404, systemHookList } from '../../views/hook-views.ts';
import { presentSystemHook } from '../../presenters/api-v4/hook.ts';
import { noContent, requireParams } from './conventions.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const hookId = (params: unknown) => pathInteger(params as Params, 'id');

  app.get('/hooks', async (request, reply) => {
    requireAdmin(request);
    const hooks = await systemHookList(deps);
    return paginateLoaded(request, reply, deps.config.externalUrl, hooks).map(presentSystemHook);
  });

  app.post('/hooks', async (request, reply) => {
    requireAdmin(request);
    const params = requestParams(request);
    requireParams(params, 'url');
    const hook = await createSystemHook(deps, optionalString(params, 'url', { passNul: true }));
    return reply.status(201).send(presentSystemHook(hook));
  });

  app.get('/hooks/:id', async (request) => {
    requireAdmin(request);
    return presentSystemHook(await loadSystemHookOr404(deps, hookId(request.params)));
  });

  app.post('/hooks/:id', async (request, reply) => {
    requireAdmin(request);
    return reply.status(201).send(await testSystemHook(deps, hookId(request.params)));
  });

  app.delete('/hooks/:id', async (request, reply) => {
    requireAdmin(request);
    await destroySystemHook(deps, hookId(request.params));
    return noContent(reply);
  });
}
