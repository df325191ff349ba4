// Reads of a project's triggers: a page (each with its last use, in the same query), one by token.
import type { Deps } from '../deps.ts';
import {
  countTriggers,
  findProjectTrigger,
  findProjectTriggerById,
  findTriggerByToken,
  listTriggers,
  type CiTriggerWithUse,
} from '../db/repositories/triggers.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { notFound } from '../errors.ts';
import { presentTrigger } from '../presenters/api-v3/trigger.ts';
import type { CiTriggerRow } from '../db/types.ts';

export function countTriggerList(deps: Deps, projectId: number): Promise<number> {
  return countTriggers(deps.db.kysely, projectId);
}

export async function listTriggersPage(
  deps: Deps,
  projectId: number,
  page: { limit: number; offset: number },
) {
  return (await listTriggers(deps.db.kysely, projectId, page)).map((trigger) =>
    presentTrigger(trigger, trigger.last_used),
  );
}

/** A live trigger of this project by token, or 404 `404 Trigger Not Found`. */
export async function loadTriggerOr404(
  deps: Deps,
  projectId: number,
  token: string,
): Promise<CiTriggerWithUse> {
  const trigger = await findProjectTrigger(deps.db.kysely, projectId, token);
  if (!trigger) throw notFound('Trigger');
  return trigger;
}

/** The live trigger a trigger call's token names, of whatever project. */
export function findTriggerForToken(deps: Deps, token: string): Promise<CiTriggerRow | undefined> {
  return findTriggerByToken(deps.db.kysely, token);
}

/** A page of triggers with their owners (one query for the users). */
export async function listTriggersWithOwners(
  deps: Deps,
  projectId: number,
  page: { limit: number; offset: number },
) {
  const triggers = await listTriggers(deps.db.kysely, projectId, page);
  return withOwners(deps, triggers);
}

async function withOwners(deps: Deps, triggers: CiTriggerWithUse[]) {
  const owners = await usersByIds(
    deps.db.kysely,
    triggers.map((trigger) => trigger.owner_id).filter((id): id is number => id !== null),
  );
  return triggers.map((trigger) => ({
    trigger,
    owner: trigger.owner_id === null ? null : (owners.get(trigger.owner_id) ?? null),
  }));
}

/** A live trigger of this project by id with its owner, or 404 `404 Trigger Not Found`. */
export async function loadTriggerByIdOr404(deps: Deps, projectId: number, id: number) {
  const trigger = await findProjectTriggerById(deps.db.kysely, projectId, id);
  if (!trigger) throw notFound('Trigger');
  return (await withOwners(deps, [trigger]))[0]!;
}
