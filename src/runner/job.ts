// A job as builds/register hands it out (GitLab's BuildDetails), and the readings of its `options` the
// shell executor needs: after_script, artifacts, cache, image and services.

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
