// Labrador's own hook delivery log (beyond GitLab 8.13; see README "Hook deliveries"): shared by the
// system and project hook routes, which check access and find the hook first.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { HookKind } from '../../db/schema.ts';
import { paginate } from '../../http/pagination.ts';
import { pathId } from '../../http/params.ts';
import { notFound } from '../../http/errors.ts';
import {
  attemptsByDelivery,
  countDeliveriesOfHook,
  listDeliveriesOfHook,
} from '../../db/repositories/hooks.ts';
import { resendDelivery } from '../../services/hooks.ts';
import { presentDelivery } from '../../presenters/hooks.ts';

export async function listHookDeliveries(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: HookKind,
  hookId: number,
) {
  const db = deps.db.kysely;
  const deliveries = await paginate(
    request,
    reply,
    deps.config.externalUrl,
    () => countDeliveriesOfHook(db, kind, hookId),
    (page) => listDeliveriesOfHook(db, kind, hookId, page),
  );
  const attempts = await attemptsByDelivery(
    db,
    deliveries.map((delivery) => delivery.id),
  );
  return deliveries.map((delivery) => presentDelivery(delivery, attempts.get(delivery.id) ?? []));
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
