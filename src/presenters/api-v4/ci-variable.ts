// Ci::Variable as v4 shows it: the instance's variables have no environment scope (every job gets them).
import type { OwnedVariableRow, VariableOwner } from '../../db/repositories/ci-variables.ts';

export function presentVariableV4(variable: OwnedVariableRow, owner: VariableOwner) {
  return {
    variable_type: variable.variable_type,
    key: variable.key,
    value: variable.value,
    protected: variable.protected === 1,
    masked: variable.masked === 1,
    raw: false,
    ...(owner.kind === 'instance' ? {} : { environment_scope: variable.environment_scope }),
    description: null,
  };
}
