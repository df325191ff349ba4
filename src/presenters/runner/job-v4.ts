// The job as the v4 runner protocol hands it out (GitLab's API::Entities::Ci::JobRequest::Response): the
// fields gitlab-runner 17's shell and docker executors read (common/network.go, JobResponse), built from
// the same build, pipeline and options the /ci/api/v1 payload is built from. Keys in GitLab's order.
import type { JobVariable } from '../../ci/variables.ts';
import type { CiBuildRow } from '../../db/types.ts';
import { BLANK_SHA } from '../../domain/types.ts';
import { hasLiveArtifacts } from '../../ci/artifacts.ts';
import { jobTimeoutSeconds, RETRY_REASONS } from '../../ci/job-limits.ts';
import { reportArtifacts } from '../../ci/report-types.ts';
import { buildRepoUrl, type JobInput } from './ci-job.ts';

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

/** `image` (a name or `{name, entrypoint}`), as the yml gave it; undefined for none. */
function presentImage(value: unknown) {
  const name = typeof value === 'string' ? value : record(value)?.name;
  if (typeof name !== 'string' || name === '') return undefined;
  const entrypoint = record(value)?.entrypoint;
  return { name, ...(entrypoint === undefined ? {} : { entrypoint: strings(entrypoint) }) };
}

/** The archive entry (when paths or untracked are given), then one entry per report. */
function presentArtifacts(options: Record<string, unknown>) {
  const artifacts = record(options.artifacts);
  if (!artifacts) return [];
  const paths = strings(artifacts.paths);
  const untracked = artifacts.untracked === true;
  const exclude = strings(artifacts.exclude);
  const archive =
    paths.length === 0 && !untracked
      ? []
      : [
          {
            name: typeof artifacts.name === 'string' ? artifacts.name : undefined,
            untracked,
            paths,
            // GitLab leaves `exclude` out when the job gives none.
            ...(exclude.length > 0 ? { exclude } : {}),
            when: typeof artifacts.when === 'string' ? artifacts.when : 'on_success',
            expire_in: typeof artifacts.expire_in === 'string' ? artifacts.expire_in : undefined,
            artifact_type: 'archive',
            artifact_format: 'zip',
          },
        ];
  return [...archive, ...reportArtifacts(artifacts.reports, artifacts.expire_in)];
}

function presentCache(options: Record<string, unknown>) {
  const cache = record(options.cache);
  if (!cache) return [];
  return [
    {
      key: typeof cache.key === 'string' ? cache.key : '',
      untracked: cache.untracked === true,
      paths: strings(cache.paths),
      policy: typeof cache.policy === 'string' ? cache.policy : 'pull-push',
      when: 'on_success',
    },
  ];
}

function presentDependency(dependency: CiBuildRow, runningToken: string | null, now: string) {
  return {
    id: dependency.id,
    name: dependency.name,
    // The running job's own token, as GitLab does behind ci_expose_running_job_token_for_artifacts: a
    // finished job's token is never handed out again.
    token: runningToken,
    ...(hasLiveArtifacts(dependency, now)
      ? { artifacts_file: { filename: dependency.artifacts_file, size: dependency.artifacts_size } }
      : {}),
  };
}

/** Variables with `masked`: the job token (under either name) is; a v3-era secret variable is not. */
function presentVariables(variables: JobVariable[], token: string | null) {
  return variables.map((variable) => ({
    key: variable.key,
    value: variable.value,
    public: variable.public,
    masked: variable.masked ?? (token !== null && variable.value === token),
  }));
}

export function presentJobV4(input: JobInput) {
  const { build, pipeline, record: project, now } = input;
  const options = build.options === null ? {} : (JSON.parse(build.options) as Record<string, unknown>);
  const timeout = jobTimeoutSeconds(options, project.project.build_timeout);
  const afterScript = strings(options.after_script);
  const image = presentImage(options.image);
  return {
    id: build.id,
    token: build.token,
    allow_git_fetch: project.project.build_allow_git_fetch === 1,
    job_info: {
      id: build.id,
      name: build.name,
      stage: build.stage,
      project_id: project.project.id,
      project_name: project.project.name,
    },
    git_info: {
      repo_url: buildRepoUrl(input.baseUrl, project, build.token),
      ref: build.ref,
      sha: pipeline.sha,
      before_sha: pipeline.before_sha ?? BLANK_SHA,
      ref_type: build.tag === 1 ? 'tag' : 'branch',
      refspecs: [
        build.tag === 1
          ? `+refs/tags/${build.ref}:refs/tags/${build.ref}`
          : `+refs/heads/${build.ref}:refs/remotes/origin/${build.ref}`,
      ],
      depth: 0,
    },
    runner_info: { timeout },
    variables: presentVariables(input.variables, build.token),
    steps: [
      {
        name: 'script',
        script: lines(build.commands ?? ''),
        timeout,
        when: 'on_success',
        allow_failure: build.allow_failure === 1,
      },
      ...(afterScript.length > 0
        ? [{ name: 'after_script', script: afterScript, timeout, when: 'always', allow_failure: true }]
        : []),
    ],
    image: image ?? null,
    services: (Array.isArray(options.services) ? options.services : [])
      .map(presentImage)
      .filter((service) => service !== undefined),
    artifacts: presentArtifacts(options),
    cache: presentCache(options),
    credentials: [],
    dependencies: input.dependencies.map((dependency) => presentDependency(dependency, build.token, now)),
    features: { trace_sections: false, failure_reasons: RETRY_REASONS },
  };
}

export type JobPayloadV4 = ReturnType<typeof presentJobV4>;
