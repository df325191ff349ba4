// System hooks: administrators add, test and remove them; every system event goes to all of them
// (services/system-hook-announcements.ts).
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { deleteSystemHook, findSystemHook, insertSystemHook } from '../../db/repositories/system-hooks.ts';
import { deleteDeliveriesOfHook } from '../../db/repositories/hook-deliveries.ts';
import { notFound, paramsMissing, recordNotFound } from '../../errors.ts';
import { systemHookTestPayload } from '../../presenters/hooks/system-hook-payloads.ts';
import { enqueueDelivery, SYSTEM_HOOK_EVENT } from './hook-outbox.ts';
import { outboundPolicyFor, refuseLocalHookUrl, validHookUrl } from './hook-url.ts';
import type { SystemHookRow } from '../../db/types.ts';

export async function createSystemHook(deps: Deps, url: string | undefined): Promise<SystemHookRow> {
  if (url === undefined) throw paramsMissing('url');
  const valid = validHookUrl(url);
  // GitLab 8.13 answered a system hook that failed validation with a bare 404 (not_found!).
  if (valid === undefined) throw notFound();
  await refuseLocalHookUrl(valid, await outboundPolicyFor(deps.db.kysely, deps.config.outbound, 'system'));
  const at = now();
  return insertSystemHook(deps.db.kysely, {
    url: valid,
    push_events: 1,
    tag_push_events: 0,
    enable_ssl_verification: 1,
    created_at: at,
    updated_at: at,
  });
}

/** GET /hooks/:id: queue the fixed sample for this hook only and answer it (failures are not reported). */
export async function testSystemHook(deps: Deps, id: number) {
  const hook = await findSystemHook(deps.db.kysely, id);
  if (!hook) throw recordNotFound();
  const payload = systemHookTestPayload();
  await enqueueDelivery(deps.db.kysely, 'system', hook.id, SYSTEM_HOOK_EVENT, JSON.stringify(payload));
  return payload;
}

export async function destroySystemHook(deps: Deps, id: number): Promise<SystemHookRow> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const hook = await findSystemHook(trx, id);
    if (!hook) throw notFound('System hook');
    await deleteDeliveriesOfHook(trx, 'system', id);
    await deleteSystemHook(trx, id);
    return hook;
  });
}
