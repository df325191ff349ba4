// Secret variables of a project (ci_variables), unique by key within the project; every read goes by the
// (project_id, key) index.
import type { Insertable } from 'kysely';
import type { CiVariablesTable } from '../schema.ts';
import type { CiVariableRow, Executor } from '../types.ts';

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
