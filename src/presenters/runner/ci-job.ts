// What the runner protocol answers: the job payload (GitLab's Ci::API::Entities::BuildDetails), the
// builds it lists as dependencies (Entities::Build) and a new runner's credentials. Keys in GitLab's order.
import type { JobVariable } from '../../ci/variables.ts';
import type { CiBuildRow, CiPipelineRow, ProjectRecord } from '../../db/types.ts';
import { BLANK_SHA } from '../../domain/types.ts';
import { hasLiveArtifacts } from '../../ci/artifacts.ts';

/** Entities::Build: a build as the runner sees it (also each of `depends_on_builds`). */
function presentRunnerBuild(build: CiBuildRow, pipeline: CiPipelineRow, record: ProjectRecord, now: string) {
  return {
    id: build.id,
    ref: build.ref,
    tag: build.tag === 1,
    sha: pipeline.sha,
    status: build.status,
    name: build.name,
    token: build.token,
    stage: build.stage,
    project_id: record.project.id,
    project_name: record.project.name,
    ...(hasLiveArtifacts(build, now)
      ? { artifacts_file: { filename: build.artifacts_file, size: build.artifacts_size } }
      : {}),
  };
}

export interface JobInput {
  baseUrl: string;
  build: CiBuildRow;
  pipeline: CiPipelineRow;
  record: ProjectRecord;
  variables: JobVariable[];
  dependencies: CiBuildRow[];
  now: string;
}

/** The project's clone URL with `gitlab-ci-token:<build token>@` after the scheme. */
export function buildRepoUrl(baseUrl: string, record: ProjectRecord, token: string | null): string {
  const url = `${baseUrl}/${record.namespace.path}/${record.project.path}.git`;
  return url.replace(/^(https?:\/\/)/, `$1gitlab-ci-token:${token ?? ''}@`);
}

/** Entities::BuildDetails: everything a runner needs to run the job. */
export function presentJob(input: JobInput) {
  const { build, pipeline, record, now } = input;
  const live = hasLiveArtifacts(build, now);
  return Object.assign(presentRunnerBuild(build, pipeline, record, now), {
    commands: build.commands,
    repo_url: buildRepoUrl(input.baseUrl, record, build.token),
    before_sha: pipeline.before_sha ?? BLANK_SHA,
    allow_git_fetch: record.project.build_allow_git_fetch === 1,
    ...(live ? { artifacts_expire_at: build.artifacts_expire_at } : {}),
    options: build.options === null ? {} : (JSON.parse(build.options) as Record<string, unknown>),
    timeout: record.project.build_timeout,
    variables: input.variables,
    depends_on_builds: input.dependencies.map((dependency) =>
      presentRunnerBuild(dependency, pipeline, record, now),
    ),
  });
}
