// System hooks, administrators only, plus Labrador's own delivery log: GET /hooks/:id/deliveries and
// POST /hooks/:id/deliveries/:delivery_id/resend.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/auth.ts';
import { optionalString, pathInteger, requestParams, type Params } from '../../http/params.ts';
import { createSystemHook, destroySystemHook, testSystemHook } from '../../services/hooks/system-hooks.ts';
import { loadSystemHookOr404, systemHookList } from '../../views/hook-views.ts';
import { presentSystemHook, presentSystemHookDeleted } from '../../presenters/api-v3/hooks.ts';
import { listHookDeliveries, resendHookDelivery } from './hook-deliveries.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/hooks', async (request) => {
    requireAdmin(request);
    return (await systemHookList(deps)).map(presentSystemHook);
  });

  app.post('/hooks', async (request, reply) => {
    requireAdmin(request);
    // A URL with a NUL byte is an invalid URL, answered as such.
    const url = optionalString(requestParams(request), 'url', { passNul: true });
    const hook = await createSystemHook(deps, url === '' ? undefined : url);
    return reply.status(201).send(presentSystemHook(hook));
  });

  app.get('/hooks/:id', async (request) => {
    requireAdmin(request);
    return testSystemHook(deps, pathInteger(request.params as Params, 'id'));
  });

  app.delete('/hooks/:id', async (request) => {
    requireAdmin(request);
    return presentSystemHookDeleted(
      await destroySystemHook(deps, pathInteger(request.params as Params, 'id')),
    );
  });

  app.get('/hooks/:id/deliveries', async (request, reply) => {
    requireAdmin(request);
    const hook = await loadSystemHookOr404(deps, pathInteger(request.params as Params, 'id'));
    return listHookDeliveries(deps, request, reply, 'system', hook.id);
  });

  app.post('/hooks/:id/deliveries/:delivery_id/resend', async (request, reply) => {
    requireAdmin(request);
    const hook = await loadSystemHookOr404(deps, pathInteger(request.params as Params, 'id'));
    return resendHookDelivery(
      deps,
      reply,
      'system',
      hook.id,
      (request.params as Record<string, string>).delivery_id,
    );
  });
}
