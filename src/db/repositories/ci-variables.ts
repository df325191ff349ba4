// Secret variables of a project (ci_variables), unique by key within the project.
import type { CiVariableRow, Executor } from '../types.ts';

export function projectVariables(db: Executor, projectId: number): Promise<CiVariableRow[]> {
  return db
    .selectFrom('ci_variables')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute();
}
