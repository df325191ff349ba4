// Reads of hooks and their delivery log: a fixed number of queries per page, then presenters.
import type { Deps } from '../deps.ts';
import { findSystemHook, listSystemHooks } from '../db/repositories/system-hooks.ts';
import { countProjectHooks, findProjectHook, listProjectHooks } from '../db/repositories/project-hooks.ts';
import {
  attemptsByDelivery,
  countDeliveriesOfHook,
  listDeliveriesOfHook,
} from '../db/repositories/hook-deliveries.ts';
import { notFound, recordNotFound } from '../errors.ts';
import { presentDelivery } from '../presenters/api-v3/hooks.ts';
import type { HookKind } from '../db/schema.ts';
import type { ProjectHookRow, SystemHookRow } from '../db/types.ts';

export type { HookKind };

interface PageWindow {
  limit: number;
  offset: number;
}

/** Every system hook (a handful; the API does not paginate them). */
export function systemHookList(deps: Deps): Promise<SystemHookRow[]> {
  return listSystemHooks(deps.db.kysely);
}

export async function loadSystemHookOr404(deps: Deps, id: number) {
  const hook = await findSystemHook(deps.db.kysely, id);
  if (!hook) throw notFound('System hook');
  return hook;
}

export function countProjectHookList(deps: Deps, projectId: number): Promise<number> {
  return countProjectHooks(deps.db.kysely, projectId);
}

export function listProjectHooksPage(
  deps: Deps,
  projectId: number,
  page: PageWindow,
): Promise<ProjectHookRow[]> {
  return listProjectHooks(deps.db.kysely, projectId, page);
}

/** A hook of this project; GitLab's `hooks.find` answered 404 `Not found` for any other id. */
export async function loadProjectHookOr404(deps: Deps, projectId: number, hookId: number | undefined) {
  const hook = hookId === undefined ? undefined : await findProjectHook(deps.db.kysely, projectId, hookId);
  if (!hook) throw recordNotFound();
  return hook;
}

export function countHookDeliveryList(deps: Deps, kind: HookKind, hookId: number): Promise<number> {
  return countDeliveriesOfHook(deps.db.kysely, kind, hookId);
}

/** A page of a hook's deliveries, newest first, each with its attempts (one query for the page's). */
export async function listHookDeliveriesPage(deps: Deps, kind: HookKind, hookId: number, page: PageWindow) {
  const deliveries = await listDeliveriesOfHook(deps.db.kysely, kind, hookId, page);
  const attempts = await attemptsByDelivery(
    deps.db.kysely,
    deliveries.map((delivery) => delivery.id),
  );
  return deliveries.map((delivery) => presentDelivery(delivery, attempts.get(delivery.id) ?? []));
}
