// Labrador's own hook delivery log (not in GitLab 8.13): an administrator may send a delivery again.
import type { Deps } from '../../deps.ts';
import { findDeliveryOfHook } from '../../db/repositories/hook-deliveries.ts';
import { notFound } from '../../errors.ts';
import { enqueueDelivery, type HookKind } from './hook-outbox.ts';

/** Queues a copy of a hook's delivery (same event and payload) as a new delivery with its own log. */
export async function resendDelivery(deps: Deps, kind: HookKind, hookId: number, deliveryId: number) {
  const original = await findDeliveryOfHook(deps.db.kysely, kind, hookId, deliveryId);
  if (!original) throw notFound('Hook delivery');
  return enqueueDelivery(deps.db.kysely, kind, hookId, original.event, original.payload);
}
