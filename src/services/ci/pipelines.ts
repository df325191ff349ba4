// Pipelines from pushes (and, later, triggers): the commit's .gitlab-ci.yml is read and checked with git
// BEFORE the caller's transaction (planPipeline), then the pipeline, its builds and their hooks are
// written INSIDE it (createPipeline), so they land with the push's events or not at all.
//
// As GitLab 8.13: no pipeline when builds are disabled, the commit has no .gitlab-ci.yml or no job runs
// for the ref; a file that does not parse or validate makes a failed pipeline carrying the error and no
// builds; "[ci skip]" / "[skip ci]" in the commit message makes a skipped pipeline without builds.
import { parseCiConfigWithIncludes, type CiConfig, type CiJob, type ProjectOpener } from '../../ci/config.ts';
import { runsForRef } from '../../ci/ref-policy.ts';
import { expandVariables, firstMatchingRule, type RuleFiles } from '../../ci/rules.ts';
import { pipelineVariables } from '../../ci/variables.ts';
import { changedPaths, treePaths } from '../../git/path-lists.ts';
import { BLANK_SHA } from '../../domain/types.ts';
import { friendlyToken } from '../../lib/tokens.ts';
import { insertBuilds } from '../../db/repositories/builds.ts';
import { insertPipeline } from '../../db/repositories/pipelines.ts';
import {
  insertPipelineVariables,
  type PipelineVariableInput,
} from '../../db/repositories/pipeline-variables.ts';
import { readFileAtCommit } from '../../git/blobs.ts';
import { readCommits, type Commit } from '../../git/commits.ts';
import { announceBuild, announcePipeline, openCiTransaction, type CiSettings } from './ci-announcements.ts';
import { processPipeline } from './pipeline-processing.ts';
import type { CiPipelineRow, Executor, ProjectRecord } from '../../db/types.ts';
import type { PipelineSource } from '../../domain/types.ts';

export const CI_FILE = '.gitlab-ci.yml';
/** A larger file is refused with an error on the pipeline rather than read. */
export const CI_FILE_MAX_BYTES = 1024 * 1024;
const SKIP_CI = /\[(ci skip|skip ci)\]/i;

/** Everything createPipeline writes, decided from git and the file beforehand. */
export interface PipelinePlan {
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string;
  commit: Commit;
  /** The file's refusal: the pipeline is failed and has no builds. */
  yamlErrors?: string;
  /** `[ci skip]`: the pipeline is skipped and has no builds. */
  skipped?: boolean;
  jobs: CiJob[];
  triggerRequestId?: number;
  /** The pipeline schedule that runs it. */
  pipelineScheduleId?: number;
  source: PipelineSource;
  /** The pipeline's own variables (the API's or its schedule's), kept with it for every job. */
  variables?: PipelineVariableInput[];
  /** A merge request pipeline's merge request and its CI_MERGE_REQUEST_* variables. */
  mergeRequest?: PlannedMergeRequest;
  /** A branch pipeline's CI_OPEN_MERGE_REQUESTS, kept for its jobs. */
  openMergeRequests?: string;
}

export interface PlannedMergeRequest {
  id: number;
  iid: number;
  variables: Record<string, string>;
}

export interface PlanInput {
  repoPath: string;
  record: ProjectRecord;
  /** Branch or tag name, without refs/heads/ or refs/tags/. */
  ref: string;
  tag: boolean;
  /** The commit to build (for a tag, the commit it points to). */
  sha: string;
  beforeSha: string;
  triggered?: boolean;
  /** Default: `trigger` when triggered, else `push`. */
  source?: PipelineSource;
  /** Pipeline variables (API, schedule, trigger): `rules` and `workflow: rules` see them over the file's. */
  variables?: Array<[string, string]>;
  /** Makes a merge request pipeline (source `merge_request_event`) of the MR's source branch `ref`. */
  mergeRequest?: PlannedMergeRequest;
  /** A branch pipeline's CI_OPEN_MERGE_REQUESTS. */
  openMergeRequests?: string;
  /** A merge request pipeline's `changes:` compare with this commit (the merge base with the target). */
  changesFrom?: string;
  /** `include: project` as the pipeline's user; without it such includes are refused. */
  openProject?: ProjectOpener;
}

/** The plan so far and, when the file is good, its configuration (jobs are chosen from it). */
type ReadPlan = { plan: PipelinePlan; config?: CiConfig };

/** Reads and checks the commit's .gitlab-ci.yml; undefined when there is none (or builds are off). */
async function readPipelineConfig(input: PlanInput): Promise<ReadPlan | undefined> {
  const { record, repoPath, sha } = input;
  if (record.project.builds_enabled !== 1) return undefined;
  const file = await readFileAtCommit(repoPath, sha, CI_FILE, CI_FILE_MAX_BYTES);
  if (!file) return undefined;
  const commit = (await readCommits(repoPath, [sha])).get(sha);
  if (!commit) return undefined;
  const source = input.source ?? (input.triggered ? 'trigger' : 'push');
  const base: PipelinePlan = {
    ref: input.ref,
    tag: input.tag,
    sha,
    beforeSha: input.beforeSha,
    commit,
    jobs: [],
    source,
    ...(input.openMergeRequests ? { openMergeRequests: input.openMergeRequests } : {}),
  };
  if (file.tooLarge)
    return { plan: { ...base, yamlErrors: `${CI_FILE} is larger than ${CI_FILE_MAX_BYTES} bytes` } };
  const parsed = await parseCiConfigWithIncludes(
    file.content.toString('utf8'),
    async (path) => {
      const included = await readFileAtCommit(repoPath, sha, path, CI_FILE_MAX_BYTES);
      return included && !included.tooLarge ? included.content.toString('utf8') : undefined;
    },
    input.openProject,
  );
  if (parsed.error !== undefined) return { plan: { ...base, yamlErrors: parsed.error } };
  if (!input.triggered && SKIP_CI.test(commit.message)) return { plan: { ...base, skipped: true } };
  return { plan: base, config: parsed.config };
}

/** The plan with the jobs rules and workflow rules choose; undefined when they choose none. */
async function chooseJobs(
  input: PlanInput,
  base: PipelinePlan,
  config: CiConfig,
  files: RuleFiles,
): Promise<PipelinePlan | undefined> {
  const jobs = await jobsForPipeline(input, base.source, base.commit, config, files);
  if (jobs === undefined) return undefined;
  const error = missingNeed(jobs);
  if (error) return { ...base, yamlErrors: error };
  if (jobs.length === 0) return undefined;
  return { ...base, jobs };
}

/** Reads and checks the commit's .gitlab-ci.yml; undefined when no pipeline is to be made. */
export async function planPipeline(input: PlanInput): Promise<PipelinePlan | undefined> {
  const read = await readPipelineConfig(input);
  if (!read?.config) return read?.plan;
  return chooseJobs(input, read.plan, read.config, ruleFiles(input, read.plan.source));
}

/**
 * A merge request pipeline read from git before the transaction that makes the merge request (whose id
 * and iid its variables name): the file, and what `changes:` and `exists:` read, fetched already, so
 * choosing its jobs in the transaction is no more than evaluating rules.
 */
export interface PreparedPipeline {
  input: PlanInput;
  plan: PipelinePlan;
  config: CiConfig;
  files: RuleFiles;
}

/**
 * The commit's file for a merge request pipeline; undefined when there is none, or it is refused or
 * skipped (the branch pipeline shows that, once).
 */
export async function preparePipeline(input: PlanInput): Promise<PreparedPipeline | undefined> {
  const read = await readPipelineConfig(input);
  if (!read?.config) return undefined;
  const files = ruleFiles(input, read.plan.source);
  const changed = files.changed();
  const tree = files.tree();
  await Promise.all([changed, tree]);
  return { input, plan: read.plan, config: read.config, files };
}

/** Writes a prepared merge request pipeline for `mergeRequest`; undefined when no job runs for it. */
export async function createPreparedPipeline(
  trx: Executor,
  settings: CiSettings,
  record: ProjectRecord,
  userId: number | null,
  prepared: PreparedPipeline,
  mergeRequest: PlannedMergeRequest,
  at: string,
): Promise<CiPipelineRow | undefined> {
  const input = { ...prepared.input, mergeRequest };
  const plan = await chooseJobs(input, { ...prepared.plan, mergeRequest }, prepared.config, prepared.files);
  return plan && createPipeline(trx, settings, record, userId, plan, at);
}

/** Lazily read, once each: what the push changed and what the commit holds. */
function ruleFiles(input: PlanInput, source: PipelineSource): RuleFiles {
  let changed: Promise<string[] | undefined> | undefined;
  let tree: Promise<string[]> | undefined;
  return {
    // As GitLab: always true for a new branch or a pipeline that does not come from a push.
    changed: () =>
      (changed ??=
        source === 'merge_request_event' && input.changesFrom
          ? changedPaths(input.repoPath, input.changesFrom, input.sha)
          : source !== 'push' || input.beforeSha === BLANK_SHA || input.tag
            ? Promise.resolve(undefined)
            : changedPaths(input.repoPath, input.beforeSha, input.sha)),
    tree: () => (tree ??= treePaths(input.repoPath, input.sha)),
  };
}

/** Variables of a job expanded against each other, the predefined ones and the file's global ones. */
function expandAll(base: ReadonlyMap<string, string>, own: Iterable<[string, string]>): Map<string, string> {
  const result = new Map(base);
  for (const [key, value] of own) result.set(key, expandVariables(String(value), result));
  return result;
}

/**
 * The jobs a pipeline gets, rules and workflow rules applied; undefined when workflow rules make no
 * pipeline. Jobs without rules keep 8.13's only/except.
 */
async function jobsForPipeline(
  input: PlanInput,
  source: PipelineSource,
  commit: Commit,
  config: CiConfig,
  files: RuleFiles,
): Promise<CiJob[] | undefined> {
  const { record } = input;
  const projectPath = `${record.namespace.path}/${record.project.path}`;
  const context = {
    ref: input.ref,
    tag: input.tag,
    triggered: Boolean(input.triggered),
    projectPath,
    mergeRequest: input.mergeRequest !== undefined,
  };
  const predefined = pipelineVariables({
    source,
    ref: input.ref,
    tag: input.tag,
    sha: input.sha,
    beforeSha: input.beforeSha,
    defaultBranch: record.project.default_branch,
    commitMessage: commit.message,
    projectPath,
    mergeRequest: input.mergeRequest?.variables,
    openMergeRequests: input.openMergeRequests,
  });
  let globals = expandAll(predefined, Object.entries(config.variables));
  // GitLab's precedence: a pipeline's own variables win over every variable of the file.
  const given = input.variables ?? [];
  const withGiven = (variables: ReadonlyMap<string, string>) =>
    given.length === 0 ? variables : new Map([...variables, ...given]);
  const workflowVariables: Array<[string, string]> = [];
  if (config.workflow.rules) {
    const rule = await firstMatchingRule(config.workflow.rules, withGiven(globals), files);
    if (!rule || rule.when === 'never') return undefined;
    workflowVariables.push(...Object.entries(rule.variables ?? {}));
    globals = expandAll(globals, workflowVariables);
  }
  const jobs: CiJob[] = [];
  for (const job of config.jobs) {
    if (!job.rules) {
      if (runsForRef(job.only, job.except, context)) jobs.push(withExtraVariables(job, workflowVariables));
      continue;
    }
    const own = job.yamlVariables.map((v) => [v.key, v.value] as [string, string]);
    const rule = await firstMatchingRule(job.rules, withGiven(expandAll(globals, own)), files);
    if (!rule || rule.when === 'never') continue;
    const when = rule.when ?? job.when;
    const options = { ...job.options };
    if (when === 'delayed') options.start_in = rule.startIn;
    jobs.push(
      withExtraVariables(
        {
          ...job,
          options,
          when: when as CiJob['when'],
          allowFailure: rule.allowFailure ?? job.allowFailure,
        },
        [...workflowVariables, ...Object.entries(rule.variables ?? {})],
      ),
    );
  }
  return jobs.sort((a, b) => a.stageIdx - b.stageIdx);
}

/** The job with workflow and rule variables over its own (later ones win). */
function withExtraVariables(job: CiJob, extra: Array<[string, string]>): CiJob {
  if (extra.length === 0) return job;
  const merged = new Map(job.yamlVariables.map((v) => [v.key, v.value]));
  for (const [key, value] of extra) merged.set(key, String(value));
  return {
    ...job,
    yamlVariables: [...merged].map(([key, value]) => ({ key, value, public: true as const })),
  };
}

/** GitLab's error for a need that rules or only/except left out of the pipeline (unless optional). */
function missingNeed(jobs: CiJob[]): string | undefined {
  const names = new Set(jobs.map((job) => job.name));
  for (const job of jobs) {
    for (const need of job.needs ?? []) {
      if (!need.optional && !names.has(need.job)) {
        return `'${job.name}' job needs '${need.job}' job, but '${need.job}' does not exist in the pipeline. This might be because of the only, except, or rules keywords.`;
      }
    }
  }
  return undefined;
}

/**
 * Writes a planned pipeline in the caller's transaction: the pipeline row, a build per job (status
 * created), their creation hooks, then stage gating opens the first stage.
 */
export async function createPipeline(
  trx: Executor,
  settings: CiSettings,
  record: ProjectRecord,
  userId: number | null,
  plan: PipelinePlan,
  at: string,
): Promise<CiPipelineRow> {
  const ctx = await openCiTransaction(trx, settings, record, at);
  const status = plan.yamlErrors !== undefined ? 'failed' : plan.skipped ? 'skipped' : 'created';
  let pipeline = await insertPipeline(trx, {
    project_id: record.project.id,
    // GitLab's ref of a merge request pipeline; its jobs keep the source branch as their ref.
    ref: plan.mergeRequest ? `refs/merge-requests/${plan.mergeRequest.iid}/head` : plan.ref,
    sha: plan.sha,
    before_sha: plan.beforeSha,
    tag: plan.tag ? 1 : 0,
    status,
    yaml_errors: plan.yamlErrors ?? null,
    source: plan.source,
    pipeline_schedule_id: plan.pipelineScheduleId ?? null,
    merge_request_id: plan.mergeRequest?.id ?? null,
    merge_request_variables: plan.mergeRequest
      ? JSON.stringify(plan.mergeRequest.variables)
      : plan.openMergeRequests
        ? JSON.stringify({ CI_OPEN_MERGE_REQUESTS: plan.openMergeRequests })
        : null,
    user_id: userId,
    commit_message: plan.commit.message,
    commit_author_name: plan.commit.authorName,
    commit_author_email: plan.commit.authorEmail,
    commit_committed_date: plan.commit.committedDate,
    committed_at: null,
    started_at: null,
    finished_at: status === 'failed' ? at : null,
    duration: null,
    created_at: at,
    updated_at: at,
  });
  await insertPipelineVariables(trx, pipeline.id, plan.variables ?? [], at);
  if (status !== 'created') {
    // created → failed (drop) or → skipped: a status change like any other.
    await announcePipeline(ctx, pipeline);
    return pipeline;
  }
  const builds = await insertBuilds(
    trx,
    plan.jobs.map((job) => ({
      project_id: record.project.id,
      pipeline_id: pipeline.id,
      type: 'build' as const,
      name: job.name,
      stage: job.stage,
      stage_idx: job.stageIdx,
      status: 'created' as const,
      ref: plan.ref,
      tag: plan.tag ? 1 : 0,
      commands: job.commands,
      options: JSON.stringify(job.options),
      yaml_variables: JSON.stringify(job.yamlVariables),
      tag_list: JSON.stringify(job.tagList),
      allow_failure: job.allowFailure ? 1 : 0,
      when: job.when,
      environment: job.environment,
      token: friendlyToken(),
      user_id: userId,
      trigger_request_id: plan.triggerRequestId ?? null,
      created_at: at,
      updated_at: at,
    })),
  );
  for (const build of builds) await announceBuild(ctx, pipeline, build);
  pipeline = await processPipeline(ctx, pipeline);
  return pipeline;
}
