// Ci::Runner as v4 embeds it in a job and lists it: `active` beside its newer inverse `paused`, the
// runner's type from its sharing, and its status.
import type { CiRunnerRow, ProjectRecord } from '../../db/types.ts';
import { projectUrls } from '../../domain/paths.ts';
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

/** What a runner's details show of each of its projects (the identity of Entities::BasicProjectDetails). */
function presentRunnerProject(record: ProjectRecord, baseUrl: string) {
  const { project, namespace } = record;
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: `${namespace.name} / ${project.name}`,
    path: project.path,
    path_with_namespace: `${namespace.path}/${project.path}`,
    created_at: project.created_at,
    default_branch: project.default_branch,
    web_url: projectUrls(baseUrl, record).webUrl,
  };
}

/** Ci::RunnerDetails: the runner, its settings, what it said about itself, and its projects. */
export function presentRunnerDetailsV4(
  runner: CiRunnerRow,
  details: {
    showToken: boolean;
    status: RunnerStatus;
    projects: Array<{ record: ProjectRecord }>;
    baseUrl: string;
  },
) {
  return Object.assign(presentRunnerV4(runner, details.status), {
    tag_list: JSON.parse(runner.tag_list) as string[],
    run_untagged: runner.run_untagged === 1,
    locked: runner.locked === 1,
    maximum_timeout: null,
    access_level: 'not_protected',
    version: runner.version,
    revision: runner.revision,
    platform: runner.platform,
    architecture: runner.architecture,
    contacted_at: runner.contacted_at,
    maintenance_note: null,
    projects: details.projects.map(({ record }) => presentRunnerProject(record, details.baseUrl)),
    groups: [],
  });
}
