// Reads of a project's secret variables for the Variables API.
import type { Deps } from '../deps.ts';
import {
  countProjectVariables,
  findProjectVariable,
  projectVariablesPage,
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
