// A pipeline's own variables, in the order given, by (pipeline_id, key).
import type { CiPipelineVariableRow, Executor } from '../types.ts';

export interface PipelineVariableInput {
  key: string;
  value: string;
  variableType: 'env_var' | 'file';
}

export async function insertPipelineVariables(
  db: Executor,
  pipelineId: number,
  variables: PipelineVariableInput[],
  at: string,
): Promise<void> {
  if (variables.length === 0) return;
  await db
    .insertInto('ci_pipeline_variables')
    .values(
      variables.map((variable) => ({
        pipeline_id: pipelineId,
        key: variable.key,
        value: variable.value,
        variable_type: variable.variableType,
        created_at: at,
      })),
    )
    .execute();
}

export function listPipelineVariables(db: Executor, pipelineId: number): Promise<CiPipelineVariableRow[]> {
  return db
    .selectFrom('ci_pipeline_variables')
    .selectAll()
    .where('pipeline_id', '=', pipelineId)
    .orderBy('id')
    .execute();
}
