// A project's secret variables (Ci::Variable): masters add, change and remove them; every build of the
// project gets them after the file's own variables (ci/variables.ts). Values are never logged and never
// part of a hook payload.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  deleteProjectVariable,
  findProjectVariable,
  insertProjectVariable,
  updateProjectVariableValue,
} from '../../db/repositories/ci-variables.ts';
import { ValidationErrors } from '../../errors.ts';
import type { CiVariableRow } from '../../db/types.ts';

const KEY_FORMAT = /^[a-zA-Z0-9_]+$/;
const KEY_MAX_LENGTH = 255;
const TAKEN = 'has already been taken';

/** Ci::Variable's validations of the key, in the order the model declared them. */
function keyErrors(key: string, taken: boolean): ValidationErrors {
  const errors = new ValidationErrors();
  if (taken) errors.add('key', TAKEN);
  if (key === '') errors.add('key', "can't be blank");
  if (key.length > KEY_MAX_LENGTH) errors.add('key', `is too long (maximum is ${KEY_MAX_LENGTH} characters)`);
  if (!KEY_FORMAT.test(key)) errors.add('key', "can contain only letters, digits and '_'.");
  return errors;
}

export async function createVariable(
  deps: Deps,
  projectId: number,
  key: string,
  value: string,
): Promise<CiVariableRow> {
  const db = deps.db.kysely;
  const taken = KEY_FORMAT.test(key) && (await findProjectVariable(db, projectId, key)) !== undefined;
  keyErrors(key, taken).throwIfAny();
  const at = now();
  try {
    return await insertProjectVariable(db, {
      project_id: projectId,
      key,
      value,
      created_at: at,
      updated_at: at,
    });
  } catch (error) {
    // Another request added the same key between the check and the insert.
    if (isUniqueViolation(error)) keyErrors(key, true).throwIfAny();
    throw error;
  }
}

/** PUT changes the value only (a missing value clears it, as 8.13's `update(value: params[:value])` did). */
export function updateVariable(
  deps: Deps,
  variable: CiVariableRow,
  value: string | undefined,
): Promise<CiVariableRow> {
  return updateProjectVariableValue(deps.db.kysely, variable.id, value ?? null, now());
}

export async function destroyVariable(deps: Deps, variable: CiVariableRow): Promise<void> {
  await deleteProjectVariable(deps.db.kysely, variable.id);
}
