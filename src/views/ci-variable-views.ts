// Reads of CI variables for the Variables APIs: a project's (v3 and v4), a group's and the instance's (v4).
import type { Deps } from '../deps.ts';
import {
  countOwnedVariables,
  countProjectVariables,
  findOwnedVariable,
  findProjectVariable,
  ownedVariablesPage,
  projectVariablesPage,
  type OwnedVariableRow,
  type VariableOwner,
} from '../db/repositories/ci-variables.ts';
import { notFound } from '../errors.ts';
import { presentVariable } from '../presenters/api-v3/ci-variable.ts';
import type { CiVariableRow } from '../db/types.ts';

export function countVariableList(deps: Deps, projectId: number): Promise<number> {
  return countProjectVariables(deps.db.kysely, projectId);
}

export async function listVariablesPage(
  deps: Deps,
  projectId: number,
  page: { limit: number; offset: number },
) {
  return (await projectVariablesPage(deps.db.kysely, projectId, page)).map(presentVariable);
}

/** The variable with this key, or 404 `Variable Not Found`. */
export async function loadVariableOr404(deps: Deps, projectId: number, key: string): Promise<CiVariableRow> {
  const variable = await findProjectVariable(deps.db.kysely, projectId, key);
  if (!variable) throw notFound('Variable');
  return variable;
}

export function countOwnedVariableList(deps: Deps, owner: VariableOwner): Promise<number> {
  return countOwnedVariables(deps.db.kysely, owner);
}

export function listOwnedVariablesPage(
  deps: Deps,
  owner: VariableOwner,
  page: { limit: number; offset: number },
): Promise<OwnedVariableRow[]> {
  return ownedVariablesPage(deps.db.kysely, owner, page);
}

/** The owner's variable with this key, or 404 `Variable Not Found`. */
export async function loadOwnedVariableOr404(
  deps: Deps,
  owner: VariableOwner,
  key: string,
): Promise<OwnedVariableRow> {
  const variable = await findOwnedVariable(deps.db.kysely, owner, key);
  if (!variable) throw notFound('Variable');
  return variable;
}
