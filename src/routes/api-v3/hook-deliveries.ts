// Labrador's own hook delivery log (not in GitLab 8.13): shared by the system and project hook routes,
// which check access and find the hook first.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { paginate } from '../../http/pagination.ts';
import { pathId } from '../../http/params.ts';
import { notFound } from '../../errors.ts';
import { resendDelivery } from '../../services/hooks/hook-deliveries.ts';
import { countHookDeliveryList, listHookDeliveriesPage, type HookKind } from '../../views/hook-views.ts';
import { presentDelivery } from '../../presenters/api-v3/hooks.ts';

export function listHookDeliveries(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: HookKind,
  hookId: number,
) {
  return paginate(
    request,
    reply,
    deps.config.externalUrl,
    () => countHookDeliveryList(deps, kind, hookId),
    (page) => listHookDeliveriesPage(deps, kind, hookId, page),
  );
}

export async function resendHookDelivery(
  deps: Deps,
  reply: FastifyReply,
  kind: HookKind,
  hookId: number,
  deliveryIdParam: unknown,
) {
  const deliveryId = pathId(deliveryIdParam);
  if (deliveryId === undefined) throw notFound('Hook delivery');
  const copy = await resendDelivery(deps, kind, hookId, deliveryId);
  return reply.status(201).send(presentDelivery(copy, []));
}
