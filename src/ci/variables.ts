// The variables a job gets, in GitLab 8.13's order: the build's own (CI, CI_BUILD_*, CI_SERVER_*), the
// project's, the pipeline's, the runner's, the file's (global merged with the job's), the build user's,
// then the project's secret variables and the trigger's (both not public). A runner lets later entries
// win, so a secret variable overrides a file variable of the same name.

export interface JobVariable {
  key: string;
  value: string | null;
  public: boolean;
  /** v4 only: the runner hides the value in the trace. */
  masked?: boolean;
}

export interface VariablesInput {
  build: {
    id: number;
    token: string | null;
    name: string;
    stage: string | null;
    ref: string | null;
    tag: boolean;
    manual: boolean;
    triggered: boolean;
  };
  pipeline: { id: number; sha: string; beforeSha: string };
  project: { id: number; path: string; namespacePath: string; webUrl: string };
  runner: { id: number; description: string | null; tags: string[] } | null;
  yamlVariables: JobVariable[];
  user: { id: number; email: string } | null;
  secretVariables: Array<{ key: string; value: string | null }>;
  triggerVariables: Record<string, string> | null;
  server: { version: string; revision: string };
  /** Predefined variables of a newer protocol, placed before the file's so that those still win. */
  laterPredefined?: JobVariable[];
}

export function jobVariables(input: VariablesInput): JobVariable[] {
  const { build, pipeline, project, runner } = input;
  const shown = (key: string, value: string | null): JobVariable => ({ key, value, public: true });
  const variables: JobVariable[] = [
    shown('CI', 'true'),
    shown('GITLAB_CI', 'true'),
    shown('CI_BUILD_ID', String(build.id)),
    { key: 'CI_BUILD_TOKEN', value: build.token, public: false },
    shown('CI_BUILD_REF', pipeline.sha),
    shown('CI_BUILD_BEFORE_SHA', pipeline.beforeSha),
    shown('CI_BUILD_REF_NAME', build.ref),
    shown('CI_BUILD_NAME', build.name),
    shown('CI_BUILD_STAGE', build.stage),
    shown('CI_SERVER_NAME', 'GitLab'),
    shown('CI_SERVER_VERSION', input.server.version),
    shown('CI_SERVER_REVISION', input.server.revision),
  ];
  if (build.tag) variables.push(shown('CI_BUILD_TAG', build.ref));
  if (build.triggered) variables.push(shown('CI_BUILD_TRIGGERED', 'true'));
  if (build.manual) variables.push(shown('CI_BUILD_MANUAL', 'true'));
  variables.push(
    shown('CI_PROJECT_ID', String(project.id)),
    shown('CI_PROJECT_NAME', project.path),
    shown('CI_PROJECT_PATH', `${project.namespacePath}/${project.path}`),
    shown('CI_PROJECT_NAMESPACE', project.namespacePath),
    shown('CI_PROJECT_URL', project.webUrl),
    shown('CI_PIPELINE_ID', String(pipeline.id)),
  );
  if (runner) {
    variables.push(
      shown('CI_RUNNER_ID', String(runner.id)),
      shown('CI_RUNNER_DESCRIPTION', runner.description),
      shown('CI_RUNNER_TAGS', runner.tags.join(', ')),
    );
  }
  variables.push(...(input.laterPredefined ?? []), ...input.yamlVariables);
  if (input.user) {
    variables.push(
      shown('GITLAB_USER_ID', String(input.user.id)),
      shown('GITLAB_USER_EMAIL', input.user.email),
    );
  }
  for (const secret of input.secretVariables)
    variables.push({ key: secret.key, value: secret.value, public: false });
  for (const [key, value] of Object.entries(input.triggerVariables ?? {})) {
    variables.push({ key, value, public: false });
  }
  return variables;
}

export interface JobLevelInput {
  build: { id: number; token: string | null; name: string; stage: string | null; ref: string | null };
  flags: { manual: boolean; triggered: boolean };
  sha: string;
  pipelineId: number;
  project: { id: number; path: string; namespacePath: string; webUrl: string };
  /** LABRADOR_EXTERNAL_URL. */
  serverUrl: string;
  /** The clone URL with `gitlab-ci-token:<job token>@`. */
  repositoryUrl: string;
}

export interface PipelineVariablesInput {
  source: string;
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string;
  defaultBranch: string | null;
  commitMessage: string;
  projectPath: string;
  /** A merge request pipeline's CI_MERGE_REQUEST_* (mergeRequestVariables): no CI_COMMIT_BRANCH then. */
  mergeRequest?: Record<string, string>;
  /** A branch pipeline's CI_OPEN_MERGE_REQUESTS (`path!iid`, at most four), when there are any. */
  openMergeRequests?: string;
}

/**
 * Today's pipeline-level predefined variables, as `rules: if` and `workflow: rules` see them when a
 * pipeline is planned: CI_PIPELINE_SOURCE, CI_COMMIT_BRANCH (branches only), CI_COMMIT_TAG (tags
 * only), CI_COMMIT_REF_NAME, CI_COMMIT_SHA, CI_COMMIT_BEFORE_SHA, CI_DEFAULT_BRANCH, CI_COMMIT_MESSAGE…
 */
export function pipelineVariables(input: PipelineVariablesInput): Map<string, string> {
  const variables = new Map<string, string>([
    ['CI', 'true'],
    ['GITLAB_CI', 'true'],
    ['CI_PIPELINE_SOURCE', input.source],
    ['CI_COMMIT_REF_NAME', input.ref],
    ['CI_COMMIT_REF_SLUG', slug(input.ref)],
    ['CI_COMMIT_SHA', input.sha],
    ['CI_COMMIT_SHORT_SHA', input.sha.slice(0, 8)],
    ['CI_COMMIT_BEFORE_SHA', input.beforeSha],
    ['CI_COMMIT_MESSAGE', input.commitMessage],
    ['CI_COMMIT_TITLE', input.commitMessage.split('\n')[0] ?? ''],
    ['CI_PROJECT_PATH', input.projectPath],
  ]);
  if (input.mergeRequest) {
    for (const [key, value] of Object.entries(input.mergeRequest)) variables.set(key, value);
  } else {
    variables.set(input.tag ? 'CI_COMMIT_TAG' : 'CI_COMMIT_BRANCH', input.ref);
    if (input.openMergeRequests) variables.set('CI_OPEN_MERGE_REQUESTS', input.openMergeRequests);
  }
  if (input.defaultBranch) variables.set('CI_DEFAULT_BRANCH', input.defaultBranch);
  return variables;
}

export interface MergeRequestVariablesInput {
  id: number;
  iid: number;
  title: string;
  sourceBranch: string;
  targetBranch: string;
  labels: string[];
  milestone: string | null;
  assignee: string | null;
  draft: boolean;
  /** The merge base of source and target, from the MR's newest version. */
  diffBaseSha: string | null;
  diffId: number | null;
  targetProtected: boolean;
  project: { id: number; path: string; webUrl: string };
}

/**
 * The CI_MERGE_REQUEST_* variables of a merge request pipeline, as GitLab sets them for one that runs on
 * the source branch's head (a "detached" pipeline): the source and target branch SHAs are empty there,
 * as GitLab leaves them (only merged results pipelines set them).
 */
export function mergeRequestVariables(input: MergeRequestVariablesInput): Record<string, string> {
  const { project } = input;
  const variables: Record<string, string> = {
    CI_MERGE_REQUEST_ID: String(input.id),
    CI_MERGE_REQUEST_IID: String(input.iid),
    CI_MERGE_REQUEST_REF_PATH: `refs/merge-requests/${input.iid}/head`,
    CI_MERGE_REQUEST_PROJECT_ID: String(project.id),
    CI_MERGE_REQUEST_PROJECT_PATH: project.path,
    CI_MERGE_REQUEST_PROJECT_URL: project.webUrl,
    CI_MERGE_REQUEST_TITLE: input.title,
    CI_MERGE_REQUEST_DRAFT: String(input.draft),
    CI_MERGE_REQUEST_EVENT_TYPE: 'detached',
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: input.sourceBranch,
    CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: '',
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: String(project.id),
    CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: project.path,
    CI_MERGE_REQUEST_SOURCE_PROJECT_URL: project.webUrl,
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: input.targetBranch,
    CI_MERGE_REQUEST_TARGET_BRANCH_SHA: '',
    CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED: String(input.targetProtected),
  };
  if (input.labels.length > 0) variables.CI_MERGE_REQUEST_LABELS = input.labels.join(',');
  if (input.milestone !== null) variables.CI_MERGE_REQUEST_MILESTONE = input.milestone;
  if (input.assignee !== null) variables.CI_MERGE_REQUEST_ASSIGNEES = input.assignee;
  if (input.diffBaseSha !== null) variables.CI_MERGE_REQUEST_DIFF_BASE_SHA = input.diffBaseSha;
  if (input.diffId !== null) variables.CI_MERGE_REQUEST_DIFF_ID = String(input.diffId);
  return variables;
}

/** GitLab's slug (CI_COMMIT_REF_SLUG…): lower case, anything but a-z0-9 as `-`, at most 63 characters, no `-` at the ends. */
function slug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .slice(0, 63)
    .replace(/^-+|-+$/g, '');
}

/**
 * Today's job-level predefined variables (GitLab 9.0 renamed CI_BUILD_* to CI_JOB_* and CI_COMMIT_*; the
 * v4 runner protocol sends both). Pipeline-level ones (CI_PIPELINE_SOURCE, CI_COMMIT_BRANCH …) are not
 * made here. CI_PROJECT_DIR is the runner's to set: only it knows where it cloned.
 */
export function jobLevelVariables(input: JobLevelInput): JobVariable[] {
  const shown = (key: string, value: string | null): JobVariable => ({ key, value, public: true });
  const server = new URL(input.serverUrl);
  const port = server.port || (server.protocol === 'https:' ? '443' : '80');
  const jobUrl = `${input.project.webUrl}/builds/${input.build.id}`;
  const variables: JobVariable[] = [
    shown('CI_JOB_ID', String(input.build.id)),
    shown('CI_JOB_URL', jobUrl),
    { key: 'CI_JOB_TOKEN', value: input.build.token, public: false, masked: true },
    shown('CI_JOB_NAME', input.build.name),
    shown('CI_JOB_STAGE', input.build.stage),
  ];
  if (input.flags.manual) variables.push(shown('CI_JOB_MANUAL', 'true'));
  if (input.flags.triggered) variables.push(shown('CI_JOB_TRIGGERED', 'true'));
  variables.push(
    shown('CI_COMMIT_SHA', input.sha),
    shown('CI_COMMIT_SHORT_SHA', input.sha.slice(0, 8)),
    shown('CI_COMMIT_REF_NAME', input.build.ref),
    shown('CI_COMMIT_REF_SLUG', slug(input.build.ref ?? '')),
    shown('CI_PIPELINE_URL', `${input.project.webUrl}/pipelines/${input.pipelineId}`),
    shown('CI_PROJECT_PATH_SLUG', slug(`${input.project.namespacePath}/${input.project.path}`)),
    shown('CI_PROJECT_TITLE', input.project.path),
    shown('CI_SERVER_URL', input.serverUrl.replace(/\/+$/, '')),
    shown('CI_SERVER_HOST', server.hostname),
    shown('CI_SERVER_PORT', port),
    shown('CI_SERVER_PROTOCOL', server.protocol.replace(':', '')),
    shown('CI_API_V4_URL', `${input.serverUrl.replace(/\/+$/, '')}/api/v4`),
    { key: 'CI_REPOSITORY_URL', value: input.repositoryUrl, public: false, masked: false },
  );
  return variables;
}

/** A stored CI variable of any level, as a job's secret variables are chosen from. */
export interface LeveledVariable {
  key: string;
  value: string | null;
  protected: number;
  environment_scope: string;
}

/** GitLab's environment_scope match: `*` everything, else the name with `*` as any run of characters. */
function scopeMatches(scope: string, environment: string | null): boolean {
  if (scope === '*') return true;
  if (environment === null) return false;
  const pattern = scope.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${pattern.join('.*')}$`).test(environment);
}

/**
 * The secret variables of a job from every level, the instance's first, then its group's, then the
 * project's (later ones win at the runner): a protected one only on a protected ref, a scoped one only
 * for a job deploying to a matching environment.
 */
export function leveledSecretVariables(
  levels: { instance: LeveledVariable[]; group: LeveledVariable[]; project: LeveledVariable[] },
  job: { protectedRef: boolean; environment: string | null },
): Array<{ key: string; value: string | null }> {
  return [...levels.instance, ...levels.group, ...levels.project]
    .filter((variable) => variable.protected !== 1 || job.protectedRef)
    .filter((variable) => scopeMatches(variable.environment_scope, job.environment))
    .map((variable) => ({ key: variable.key, value: variable.value }));
}
