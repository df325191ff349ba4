// System hooks (reference/api-v3.md §7.5; README rows 31–32), administrators only, plus Labrador's own
// delivery log: GET /hooks/:id/deliveries and POST /hooks/:id/deliveries/:delivery_id/resend.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/auth.ts';
import { notFound, paramInvalid } from '../../http/errors.ts';
import { optionalString, parseInteger, requestParams } from '../../http/params.ts';
import { listSystemHooks, findSystemHook } from '../../db/repositories/hooks.ts';
import { createSystemHook, destroySystemHook, testSystemHook } from '../../services/hooks.ts';
import { presentSystemHook, presentSystemHookDeleted } from '../../presenters/hooks.ts';
import { listHookDeliveries, resendHookDelivery } from './hook-deliveries.ts';

/** Grape's `requires :id, type: Integer`: anything else is `{"error":"id is invalid"}`. */
function integerParam(request: FastifyRequest, name: string): number {
  const value = (request.params as Record<string, string>)[name];
  if (!/^\d{1,9}$/.test(value ?? '')) throw paramInvalid(name);
  return parseInteger(value, name);
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/hooks', async (request) => {
    requireAdmin(request);
    const hooks = await listSystemHooks(deps.db.kysely);
    return hooks.map(presentSystemHook);
  });

  app.post('/hooks', async (request, reply) => {
    requireAdmin(request);
    const url = optionalString(requestParams(request), 'url');
    const hook = await createSystemHook(deps, url === '' ? undefined : url);
    return reply.status(201).send(presentSystemHook(hook));
  });

  app.get('/hooks/:id', async (request) => {
    requireAdmin(request);
    return testSystemHook(deps, integerParam(request, 'id'));
  });

  app.delete('/hooks/:id', async (request) => {
    requireAdmin(request);
    return presentSystemHookDeleted(await destroySystemHook(deps, integerParam(request, 'id')));
  });

  app.get('/hooks/:id/deliveries', async (request, reply) => {
    requireAdmin(request);
    const hook = await findSystemHook(deps.db.kysely, integerParam(request, 'id'));
    if (!hook) throw notFound('System hook');
    return listHookDeliveries(deps, request, reply, 'system', hook.id);
  });

  app.post('/hooks/:id/deliveries/:delivery_id/resend', async (request, reply) => {
    requireAdmin(request);
    const hook = await findSystemHook(deps.db.kysely, integerParam(request, 'id'));
    if (!hook) throw notFound('System hook');
    return resendHookDelivery(
      deps,
      reply,
      'system',
      hook.id,
      (request.params as Record<string, string>).delivery_id,
    );
  });
}
