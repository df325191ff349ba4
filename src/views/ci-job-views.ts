// The job payload a runner gets when it takes a build (and again after an artifacts upload): a fixed
// number of reads — the build, its pipeline and project, the runner, the build's user, the secret
// variables of the project, its group and the instance, its protected branches, the trigger's
// variables, the newest builds of the earlier stages and their dotenv reports — then presenters.
import type { Deps } from '../deps.ts';
import { now } from '../lib/clock.ts';
import { dependencyBuilds, findBuild, namedDependencyBuilds } from '../db/repositories/builds.ts';
import { projectVariables, sharedVariablesFor } from '../db/repositories/ci-variables.ts';
import { listProtectedBranches } from '../db/repositories/protected-branches.ts';
import { branchProtection } from '../policies/protected-branches.ts';
import { findPipeline } from '../db/repositories/pipelines.ts';
import { findProjectRecordById } from '../db/repositories/projects.ts';
import { runnersByIds } from '../db/repositories/runners.ts';
import { findTriggerRequest } from '../db/repositories/triggers.ts';
import { findUserById } from '../db/repositories/users.ts';
import {
  jobLevelVariables,
  jobVariables,
  leveledSecretVariables,
  pipelineVariables,
  type JobVariable,
} from '../ci/variables.ts';
import {
  environmentSlug,
  environmentTier,
  expandJobEnvironment,
  guessedTier,
  jobEnvironment,
} from '../ci/environments.ts';
import { findEnvironmentByName } from '../db/repositories/environments.ts';
import type { CiBuildRow } from '../db/types.ts';
import { GITLAB_VERSION, REVISION } from '../domain/version.ts';
import { buildRepoUrl, presentJob, type JobInput } from '../presenters/runner/ci-job.ts';
import { presentJobV4 } from '../presenters/runner/job-v4.ts';
import { BLANK_SHA } from '../domain/types.ts';
import { listPipelineVariables } from '../db/repositories/pipeline-variables.ts';
import { jobArtifactsOfType } from '../db/repositories/job-artifacts.ts';

export type JobPayload = ReturnType<typeof presentJob>;

/** Everything either protocol's payload is built from; `laterPredefined` adds a newer protocol's variables. */
async function loadJobInput(
  deps: Deps,
  buildId: number,
  laterPredefined?: (input: Omit<JobInput, 'variables'>) => JobVariable[],
): Promise<JobInput> {
  const db = deps.db.kysely;
  const build = (await findBuild(db, buildId))!;
  const pipeline = (await findPipeline(db, build.pipeline_id))!;
  const record = (await findProjectRecordById(db, build.project_id))!;
  const runner =
    build.runner_id === null ? undefined : (await runnersByIds(db, [build.runner_id])).get(build.runner_id);
  const user = build.user_id === null ? undefined : await findUserById(db, build.user_id);
  const [projectSecrets, shared, protectedRules] = await Promise.all([
    projectVariables(db, record.project.id),
    sharedVariablesFor(db, record.namespace.type === 'Group' ? [record.namespace.id] : []),
    listProtectedBranches(db, record.project.id),
  ]);
  const secrets = leveledSecretVariables(
    {
      instance: shared.filter((variable) => variable.group_id === null),
      group: shared.filter((variable) => variable.group_id !== null),
      project: projectSecrets,
    },
    {
      // Protected tags came after 8.13: only branches are protected here.
      protectedRef:
        build.tag !== 1 && build.ref !== null && branchProtection(protectedRules, build.ref).protected,
      environment: build.environment,
    },
  );
  const [trigger, ownVariables] = await Promise.all([
    build.trigger_request_id === null ? undefined : findTriggerRequest(db, build.trigger_request_id),
    listPipelineVariables(db, pipeline.id),
  ]);
  const options = build.options === null ? {} : (JSON.parse(build.options) as Record<string, unknown>);
  // A job with needs takes the artifacts of what it needs (options.dependencies, set from them), in
  // any stage; others those of every earlier stage, as 8.13.
  const dependencies = options.needs
    ? await namedDependencyBuilds(db, pipeline.id, (options.dependencies as string[] | undefined) ?? [])
    : build.stage_idx === null
      ? []
      : await dependencyBuilds(db, pipeline.id, build.stage_idx);
  const dotenv = await dotenvVariables(deps, options, dependencies);
  const baseUrl = deps.config.externalUrl;
  const base = { baseUrl, build, pipeline, record, dependencies, now: now() };
  const variables = jobVariables({
    laterPredefined: laterPredefined?.(base),
    build: {
      id: build.id,
      token: build.token,
      name: build.name,
      stage: build.stage,
      ref: build.ref,
      tag: build.tag === 1,
      manual: build.when === 'manual',
      triggered: build.trigger_request_id !== null,
    },
    pipeline: { id: pipeline.id, sha: pipeline.sha, beforeSha: pipeline.before_sha ?? BLANK_SHA },
    project: {
      id: record.project.id,
      path: record.project.path,
      namespacePath: record.namespace.path,
      webUrl: `${baseUrl}/${record.namespace.path}/${record.project.path}`,
    },
    runner: runner
      ? { id: runner.id, description: runner.description, tags: JSON.parse(runner.tag_list) as string[] }
      : null,
    // GitLab's precedence: a dotenv report's variables over the file's, under every secret variable.
    yamlVariables: [
      ...(build.yaml_variables === null ? [] : (JSON.parse(build.yaml_variables) as JobVariable[])),
      ...dotenv,
    ],
    user: user ? { id: user.id, email: user.email } : null,
    secretVariables: secrets,
    triggerVariables: trigger?.variables ? (JSON.parse(trigger.variables) as Record<string, string>) : null,
    server: { version: GITLAB_VERSION, revision: REVISION },
  });
  // Today's pipeline-level variables go first, so every 8.x, file and secret variable still wins.
  const known = new Set(variables.map((v) => v.key));
  const kept =
    pipeline.merge_request_variables === null
      ? {}
      : (JSON.parse(pipeline.merge_request_variables) as Record<string, string>);
  const today = [
    ...pipelineVariables({
      source: pipeline.source,
      ref: build.ref ?? pipeline.ref,
      tag: build.tag === 1,
      sha: pipeline.sha,
      beforeSha: pipeline.before_sha ?? BLANK_SHA,
      defaultBranch: record.project.default_branch,
      commitMessage: pipeline.commit_message ?? '',
      projectPath: `${record.namespace.path}/${record.project.path}`,
      ...(pipeline.source === 'merge_request_event'
        ? { mergeRequest: kept }
        : { openMergeRequests: kept.CI_OPEN_MERGE_REQUESTS }),
    }),
  ]
    .filter(([key]) => !known.has(key))
    .map(([key, value]) => ({ key, value, public: true }));
  const all = [...today, ...variables];
  // The pipeline's own variables (API, schedule) come last: they win over every other kind.
  const given = ownVariables.map((v) => ({ key: v.key, value: v.value, public: false }));
  return {
    ...base,
    variables: [...today, ...(await environmentVariables(deps, build, all)), ...variables, ...given],
  };
}

/**
 * The variables of the `dotenv` reports of the jobs whose artifacts this job takes: those it names in
 * `dependencies` (or needs with artifacts), else every job of the earlier stages; later jobs win.
 */
async function dotenvVariables(
  deps: Deps,
  options: Record<string, unknown>,
  dependencies: CiBuildRow[],
): Promise<JobVariable[]> {
  const named = Array.isArray(options.dependencies) ? (options.dependencies as string[]) : undefined;
  const from = named ? dependencies.filter((d) => named.includes(d.name)) : dependencies;
  const reports = await jobArtifactsOfType(
    deps.db.kysely,
    from.map((d) => d.id),
    'dotenv',
  );
  return reports.flatMap((report) =>
    (JSON.parse(report.dotenv_variables ?? '[]') as Array<[string, string]>).map(([key, value]) => ({
      key,
      value,
      public: true,
    })),
  );
}

/**
 * CI_ENVIRONMENT_NAME, _SLUG and _URL of a deploying job: its environment's name and URL expanded with
 * the job's variables; the slug (and, without a URL in the file, the URL) of the environment when it
 * exists already, else the slug it will get.
 */
async function environmentVariables(deps: Deps, build: CiBuildRow, variables: JobVariable[]) {
  const declared = jobEnvironment(build.options);
  if (declared === null) return [];
  const map = new Map<string, string>();
  for (const variable of variables) if (variable.value !== null) map.set(variable.key, variable.value);
  const job = expandJobEnvironment(declared, map);
  const environment = await findEnvironmentByName(deps.db.kysely, build.project_id, job.name);
  const url = job.url ?? environment?.external_url ?? null;
  const shown = (key: string, value: string): JobVariable => ({ key, value, public: true });
  return [
    shown('CI_ENVIRONMENT_NAME', job.name),
    shown('CI_ENVIRONMENT_SLUG', environment?.slug ?? environmentSlug(job.name)),
    ...(url ? [shown('CI_ENVIRONMENT_URL', url)] : []),
    shown('CI_ENVIRONMENT_ACTION', job.action),
    shown('CI_ENVIRONMENT_TIER', environment ? environmentTier(environment) : guessedTier(job.name)),
  ];
}

export async function jobPayload(deps: Deps, buildId: number): Promise<JobPayload> {
  return presentJob(await loadJobInput(deps, buildId));
}

/** The v4 runner protocol's job (POST /api/v4/jobs/request), with today's predefined variables. */
export async function jobPayloadV4(deps: Deps, buildId: number) {
  const input = await loadJobInput(deps, buildId, (base) =>
    jobLevelVariables({
      build: base.build,
      flags: { manual: base.build.when === 'manual', triggered: base.build.trigger_request_id !== null },
      sha: base.pipeline.sha,
      pipelineId: base.pipeline.id,
      project: {
        id: base.record.project.id,
        path: base.record.project.path,
        namespacePath: base.record.namespace.path,
        webUrl: `${base.baseUrl}/${base.record.namespace.path}/${base.record.project.path}`,
      },
      serverUrl: base.baseUrl,
      repositoryUrl: buildRepoUrl(base.baseUrl, base.record, base.build.token),
    }),
  );
  return presentJobV4(input);
}
