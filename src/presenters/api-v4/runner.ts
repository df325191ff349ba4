// Ci::Runner as v4 embeds it in a job and lists it: `active` beside its newer inverse `paused`, the
// runner's type from its sharing, and its status.
import type { CiRunnerRow } from '../../db/types.ts';
import type { RunnerStatus } from '../../domain/types.ts';

export function presentRunnerV4(runner: CiRunnerRow, status: RunnerStatus) {
  return {
    id: runner.id,
    description: runner.description,
    ip_address: null,
    active: runner.active === 1,
    paused: runner.active !== 1,
    is_shared: runner.is_shared === 1,
    runner_type: runner.is_shared === 1 ? 'instance_type' : 'project_type',
    name: runner.name,
    online: status === 'online',
    status,
  };
}
