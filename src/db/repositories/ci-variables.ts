// Secret variables of a project (ci_variables), unique by key within the project; every read goes by the
// (project_id, key) index.
import type { Insertable } from 'kysely';
import type { CiVariablesTable } from '../schema.ts';
import type { CiSharedVariableRow, CiVariableRow, Executor } from '../types.ts';

export function projectVariables(db: Executor, projectId: number): Promise<CiVariableRow[]> {
  return db
    .selectFrom('ci_variables')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute();
}

export async function countProjectVariables(db: Executor, projectId: number): Promise<number> {
  const row = await db
    .selectFrom('ci_variables')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function projectVariablesPage(
  db: Executor,
  projectId: number,
  page: { limit: number; offset: number },
): Promise<CiVariableRow[]> {
  return db
    .selectFrom('ci_variables')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function findProjectVariable(
  db: Executor,
  projectId: number,
  key: string,
): Promise<CiVariableRow | undefined> {
  return db
    .selectFrom('ci_variables')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('key', '=', key)
    .executeTakeFirst();
}

export function insertProjectVariable(
  db: Executor,
  values: Insertable<CiVariablesTable>,
): Promise<CiVariableRow> {
  return db.insertInto('ci_variables').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateProjectVariableValue(
  db: Executor,
  id: number,
  value: string | null,
  at: string,
): Promise<CiVariableRow> {
  return db
    .updateTable('ci_variables')
    .set({ value, updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes the row; answers whether it was still there. */
export async function deleteProjectVariable(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('ci_variables').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whose variables: a project's (ci_variables), a group's or the instance's (ci_shared_variables). */
export type VariableOwner =
  { kind: 'project'; id: number } | { kind: 'group'; id: number } | { kind: 'instance' };

/** What every owner's variable has (a project's row also names its project). */
export type OwnedVariableRow = Omit<CiVariableRow, 'project_id'>;

export type VariableAttributes = Pick<
  OwnedVariableRow,
  'key' | 'value' | 'variable_type' | 'protected' | 'masked' | 'environment_scope'
>;

function sharedOf(db: Executor, owner: { kind: 'group'; id: number } | { kind: 'instance' }) {
  const query = db.selectFrom('ci_shared_variables');
  return owner.kind === 'group'
    ? query.where('group_id', '=', owner.id)
    : query.where('group_id', 'is', null);
}

export async function countOwnedVariables(db: Executor, owner: VariableOwner): Promise<number> {
  if (owner.kind === 'project') return countProjectVariables(db, owner.id);
  const row = await sharedOf(db, owner)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function ownedVariablesPage(
  db: Executor,
  owner: VariableOwner,
  page: { limit: number; offset: number },
): Promise<OwnedVariableRow[]> {
  if (owner.kind === 'project') return projectVariablesPage(db, owner.id, page);
  return sharedOf(db, owner).selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute();
}

export function findOwnedVariable(
  db: Executor,
  owner: VariableOwner,
  key: string,
): Promise<OwnedVariableRow | undefined> {
  if (owner.kind === 'project') return findProjectVariable(db, owner.id, key);
  return sharedOf(db, owner).selectAll().where('key', '=', key).executeTakeFirst();
}

export function insertOwnedVariable(
  db: Executor,
  owner: VariableOwner,
  values: VariableAttributes & { created_at: string; updated_at: string },
): Promise<OwnedVariableRow> {
  if (owner.kind === 'project') {
    return insertProjectVariable(db, { ...values, project_id: owner.id });
  }
  return db
    .insertInto('ci_shared_variables')
    .values({ ...values, group_id: owner.kind === 'group' ? owner.id : null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateOwnedVariable(
  db: Executor,
  owner: VariableOwner,
  id: number,
  changes: Partial<VariableAttributes> & { updated_at: string },
): Promise<OwnedVariableRow> {
  const table = owner.kind === 'project' ? 'ci_variables' : 'ci_shared_variables';
  return db.updateTable(table).set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteOwnedVariable(db: Executor, owner: VariableOwner, id: number): Promise<boolean> {
  const table = owner.kind === 'project' ? 'ci_variables' : 'ci_shared_variables';
  const result = await db.deleteFrom(table).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The instance's variables, then those of the given groups (outermost first), for a job: one query. */
export function sharedVariablesFor(
  db: Executor,
  groupIds: readonly number[],
): Promise<CiSharedVariableRow[]> {
  return db
    .selectFrom('ci_shared_variables')
    .selectAll()
    .where((eb) =>
      groupIds.length > 0
        ? eb.or([eb('group_id', 'is', null), eb('group_id', 'in', [...groupIds])])
        : eb('group_id', 'is', null),
    )
    .orderBy('id')
    .execute();
}

/** The values of the masked variables a project's jobs may get (the project's, its group's, the instance's). */
export async function maskedValuesFor(
  db: Executor,
  projectId: number,
  groupId: number | null,
): Promise<string[]> {
  const [own, shared] = await Promise.all([
    db
      .selectFrom('ci_variables')
      .select('value')
      .where('project_id', '=', projectId)
      .where('masked', '=', 1)
      .execute(),
    sharedVariablesFor(db, groupId === null ? [] : [groupId]),
  ]);
  return [...own, ...shared.filter((variable) => variable.masked === 1)]
    .map((variable) => variable.value)
    .filter((value): value is string => Boolean(value));
}
