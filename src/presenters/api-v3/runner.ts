// Runner shapes: the credentials a registration answers (the CI API's Entities::Runner) and the runner as
// API v3 lists it (Entities::Runner: id, description, active, is_shared, name) and shows it (RunnerDetails).
import type { CiRunnerRow, ProjectRecord, UserRow } from '../../db/types.ts';
import { presentBasicProject } from './project.ts';

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

/** A project in a runner's details (BasicProjectDetails) with its namespace owner for the human name. */
export interface RunnerProject {
  record: ProjectRecord;
  owner: UserRow | null;
}

/** Entities::RunnerDetails: the runner with its settings, what it said about itself, and its projects. */
export function presentRunnerDetails(
  runner: CiRunnerRow,
  options: { showToken: boolean; projects: RunnerProject[]; baseUrl: string },
) {
  return Object.assign(presentRunner(runner), {
    tag_list: JSON.parse(runner.tag_list) as string[],
    run_untagged: runner.run_untagged === 1,
    locked: runner.locked === 1,
    version: runner.version,
    revision: runner.revision,
    platform: runner.platform,
    architecture: runner.architecture,
    contacted_at: runner.contacted_at,
    ...(options.showToken ? { token: runner.token } : {}),
    projects: options.projects.map((project) =>
      presentBasicProject(project.record, project.owner, options.baseUrl),
    ),
  });
}
