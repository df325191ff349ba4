// CI variables of a project (Ci::Variable), and under v4 of a group and of the instance, with their type,
// protection, masking and environment scope: masters (administrators for the instance's) add, change
// and remove them; every build gets them after the file's own variables (ci/variables.ts), the instance's
// first and the project's last. Values are never logged and never part of a hook payload.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  deleteOwnedVariable,
  deleteProjectVariable,
  findOwnedVariable,
  findProjectVariable,
  insertOwnedVariable,
  insertProjectVariable,
  updateOwnedVariable,
  updateProjectVariableValue,
  type OwnedVariableRow,
  type VariableAttributes,
  type VariableOwner,
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

/**
 * GitLab's rule for a value a job log can hide: one line of at least 8 characters from the base64
 * alphabet and a few more (`@`, `:`, `.`, `~`, `-`, `_`, `=`, `/`, `+`).
 */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;

export type VariableChanges = Partial<Omit<VariableAttributes, 'key'>>;

/** Validations of v4's attributes, on the row as it would be after the change. */
function attributeErrors(after: Omit<VariableAttributes, 'key'>, errors = new ValidationErrors()) {
  if (after.masked === 1 && !MASKABLE.test(after.value ?? '')) {
    errors.add('value', 'is invalid');
  }
  if (after.environment_scope === '') errors.add('environment_scope', "can't be blank");
  return errors;
}

const DEFAULTS = { variable_type: 'env_var', protected: 0, masked: 0, environment_scope: '*' } as const;

/** v4's create at any level: the key as Ci::Variable checks it, then the attributes. */
export async function createOwnedVariable(
  deps: Deps,
  owner: VariableOwner,
  key: string,
  changes: VariableChanges,
): Promise<OwnedVariableRow> {
  const db = deps.db.kysely;
  const taken = KEY_FORMAT.test(key) && (await findOwnedVariable(db, owner, key)) !== undefined;
  const attributes = { ...DEFAULTS, value: null, ...changes };
  attributeErrors(attributes, keyErrors(key, taken)).throwIfAny();
  const at = now();
  try {
    return await insertOwnedVariable(db, owner, { ...attributes, key, created_at: at, updated_at: at });
  } catch (error) {
    if (isUniqueViolation(error)) keyErrors(key, true).throwIfAny();
    throw error;
  }
}

/** v4's PUT: only what is given changes; masking is checked against the value after the change. */
export async function updateOwnedVariableAttributes(
  deps: Deps,
  owner: VariableOwner,
  variable: OwnedVariableRow,
  changes: VariableChanges,
): Promise<OwnedVariableRow> {
  attributeErrors({ ...variable, ...changes }).throwIfAny();
  return updateOwnedVariable(deps.db.kysely, owner, variable.id, { ...changes, updated_at: now() });
}

export async function destroyOwnedVariable(
  deps: Deps,
  owner: VariableOwner,
  variable: OwnedVariableRow,
): Promise<void> {
  await deleteOwnedVariable(deps.db.kysely, owner, variable.id);
}
