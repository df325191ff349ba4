// A job as the shell executor works it, read from the v4 runner protocol's payload (POST
// /api/v4/jobs/request: job_info, git_info, steps, artifacts, cache, image, services, dependencies), and
// the readings of its options the executor needs: after_script, artifacts, cache, image and services.

export interface JobVariable {
  key: string;
  value: string;
  public: boolean;
}

export interface DependencyBuild {
  id: number;
  name: string;
  token: string;
  artifacts_file?: { filename: string; size: number };
}

export interface Job {
  id: number;
  token: string;
  name: string;
  stage: string;
  ref: string;
  tag: boolean;
  sha: string;
  project_id: number;
  project_name: string;
  commands: string;
  repo_url: string;
  before_sha: string;
  timeout: number | null;
  options: Record<string, unknown>;
  variables: JobVariable[];
  depends_on_builds: DependencyBuild[];
}

/** The parts of the v4 payload this runner reads (GitLab's JobRequest::Response). */
export interface JobPayloadV4 {
  id: number;
  token: string;
  job_info: { id: number; name: string; stage: string; project_id: number; project_name: string };
  git_info: { repo_url: string; ref: string; sha: string; before_sha: string; ref_type: string };
  runner_info?: { timeout?: number };
  variables: JobVariable[];
  steps: Array<{ name: string; script: string[]; timeout?: number }>;
  image?: { name: string } | null;
  services?: Array<{ name: string }>;
  artifacts?: Array<Record<string, unknown>>;
  cache?: Array<Record<string, unknown>>;
  dependencies?: DependencyBuild[];
}

/** The v4 payload in the executor's terms; a v4 `artifacts`/`cache` list holds one entry per kind. */
export function jobFromPayload(payload: JobPayloadV4): Job {
  const step = (name: string) => payload.steps.find((candidate) => candidate.name === name)?.script ?? [];
  const options: Record<string, unknown> = {};
  const archive = (payload.artifacts ?? []).find((entry) => (entry.artifact_type ?? 'archive') === 'archive');
  if (archive) options.artifacts = archive;
  if (payload.cache?.[0]) options.cache = payload.cache[0];
  if (payload.image) options.image = payload.image;
  if (payload.services && payload.services.length > 0) options.services = payload.services;
  const after = step('after_script');
  if (after.length > 0) options.after_script = after;
  return {
    id: payload.id,
    token: payload.token,
    name: payload.job_info.name,
    stage: payload.job_info.stage,
    ref: payload.git_info.ref,
    tag: payload.git_info.ref_type === 'tag',
    sha: payload.git_info.sha,
    project_id: payload.job_info.project_id,
    project_name: payload.job_info.project_name,
    commands: step('script').join('\n'),
    repo_url: payload.git_info.repo_url,
    before_sha: payload.git_info.before_sha,
    timeout: payload.runner_info?.timeout ?? null,
    options,
    variables: payload.variables,
    depends_on_builds: payload.dependencies ?? [],
  };
}

export type ArtifactsWhen = 'on_success' | 'on_failure' | 'always';

export interface ArtifactsOptions {
  name: string | undefined;
  paths: string[];
  untracked: boolean;
  when: ArtifactsWhen;
  expireIn: string | undefined;
}

export interface CacheOptions {
  key: string | undefined;
  paths: string[];
  untracked: boolean;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The script lines: one command per non-blank line (how gitlab-runner 1.x read `commands`). */
export function commandLines(commands: string | string[] | undefined): string[] {
  const all = Array.isArray(commands) ? commands.join('\n') : (commands ?? '');
  return all
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

export function afterScript(job: Job): string[] {
  return commandLines(strings(job.options.after_script));
}

/** `artifacts`, or undefined when the job keeps none. */
export function artifactsOptions(job: Job): ArtifactsOptions | undefined {
  const artifacts = record(job.options.artifacts);
  if (!artifacts) return undefined;
  const paths = strings(artifacts.paths);
  const untracked = artifacts.untracked === true;
  if (paths.length === 0 && !untracked) return undefined;
  const when = artifacts.when === 'on_failure' || artifacts.when === 'always' ? artifacts.when : 'on_success';
  return { name: text(artifacts.name), paths, untracked, when, expireIn: text(artifacts.expire_in) };
}

/** `cache`, or undefined when the job keeps none. */
export function cacheOptions(job: Job): CacheOptions | undefined {
  const cache = record(job.options.cache);
  if (!cache) return undefined;
  const paths = strings(cache.paths);
  const untracked = cache.untracked === true;
  if (paths.length === 0 && !untracked) return undefined;
  return { key: text(cache.key), paths, untracked };
}

/** What a container executor would use: `image` and the `services` names. */
export function containerOptions(job: Job): { image: string | undefined; services: string[] } {
  const image = text(job.options.image) ?? text(record(job.options.image)?.name);
  const services = Array.isArray(job.options.services)
    ? job.options.services.flatMap((service) => strings(service).concat(strings(record(service)?.name)))
    : [];
  return { image, services };
}

/** `$NAME` and `${NAME}` replaced by the job's variables (unknown names become empty), as the runner did. */
export function expandVariables(value: string, variables: JobVariable[]): string {
  const values = new Map(variables.map((variable) => [variable.key, variable.value]));
  return value.replace(
    /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (_match, braced: string | undefined, bare: string | undefined) => values.get((braced ?? bare)!) ?? '',
  );
}
