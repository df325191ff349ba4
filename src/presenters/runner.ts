// Runner shapes: the credentials a registration answers (the CI API's Entities::Runner) and the runner as
// API v3 lists it (Entities::Runner: id, description, active, is_shared, name).
import type { CiRunnerRow } from '../db/types.ts';

export function presentRegisteredRunner(runner: CiRunnerRow) {
  return { id: runner.id, token: runner.token };
}

export function presentRunner(runner: CiRunnerRow) {
  return {
    id: runner.id,
    description: runner.description,
    active: runner.active === 1,
    is_shared: runner.is_shared === 1,
    name: runner.name,
  };
}
