// Entities::Variable: a project's secret variable as the Variables API shows it to masters.
import type { CiVariableRow } from '../../db/types.ts';

export function presentVariable(variable: CiVariableRow) {
  return { key: variable.key, value: variable.value };
}
