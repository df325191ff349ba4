// The build and pipeline hook bodies (GitLab 8.13's Gitlab::DataBuilder::Build and ::Pipeline), field for
// field. Their times went through Sidekiq's JSON as Ruby's Time#to_s: `2016-08-12 15:23:28 UTC`.
import { avatarUrl } from '../api-v3/user.ts';
import { namespaceHumanName } from '../api-v3/project.ts';
import { projectHookAttrs, repositoryHookAttrs, xmlschema } from './hook-attrs.ts';
import type { CiBuildRow, CiPipelineRow, CiRunnerRow, ProjectRecord, UserRow } from '../../db/types.ts';
import { BLANK_SHA } from '../../domain/types.ts';

/** `2016-08-12T15:23:28.506Z` → `2016-08-12 15:23:28 UTC`. */
export function hookTime(iso: string | null): string | null {
  if (!iso) return null;
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** Seconds between start and finish (a running build: until now), as Ruby's Time difference. */
function buildDuration(build: Pick<CiBuildRow, 'started_at' | 'finished_at'>, now: string): number | null {
  if (!build.started_at) return null;
  return (Date.parse(build.finished_at ?? now) - Date.parse(build.started_at)) / 1000;
}

export interface BuildHookInput {
  baseUrl: string;
  record: ProjectRecord;
  /** Owner of a personal namespace (for `project_name`); null for group projects. */
  owner: UserRow | null;
  pipeline: CiPipelineRow;
  build: CiBuildRow;
  user: UserRow | null;
  now: string;
}

export function presentBuildHook(input: BuildHookInput) {
  const { build, pipeline, record, user } = input;
  return {
    object_kind: 'build',
    ref: build.ref,
    tag: build.tag === 1,
    before_sha: pipeline.before_sha ?? BLANK_SHA,
    sha: pipeline.sha,
    build_id: build.id,
    build_name: build.name,
    build_stage: build.stage,
    build_status: build.status,
    build_started_at: hookTime(build.started_at),
    build_finished_at: hookTime(build.finished_at),
    build_duration: buildDuration(build, input.now),
    build_allow_failure: build.allow_failure === 1,
    project_id: record.project.id,
    project_name: `${namespaceHumanName(record.namespace, input.owner)} / ${record.project.name}`,
    user: { id: user?.id ?? null, name: user?.name ?? null, email: user?.email ?? null },
    commit: {
      id: pipeline.id,
      sha: pipeline.sha,
      message: pipeline.commit_message,
      author_name: pipeline.commit_author_name,
      author_email: pipeline.commit_author_email,
      status: pipeline.status,
      duration: pipeline.duration,
      started_at: hookTime(pipeline.started_at),
      finished_at: hookTime(pipeline.finished_at),
    },
    repository: repositoryHookAttrs(projectHookAttrs(input.baseUrl, record)),
  };
}

const userHookAttrs = (user: UserRow | undefined | null, baseUrl: string) =>
  user ? { name: user.name, username: user.username, avatar_url: avatarUrl(user, baseUrl) } : null;

/** Stage names of a pipeline's rows, ordered by their stage index (then name), as CommitStatus.stages. */
function pipelineStages(rows: Array<Pick<CiBuildRow, 'stage' | 'stage_idx'>>): string[] {
  const maxIndex = new Map<string, number>();
  for (const row of rows) {
    if (row.stage === null) continue;
    const index = row.stage_idx ?? Number.MAX_SAFE_INTEGER;
    maxIndex.set(row.stage, Math.max(maxIndex.get(row.stage) ?? -1, index));
  }
  return [...maxIndex]
    .sort(([a, ia], [b, ib]) => ia - ib || (a < b ? -1 : a > b ? 1 : 0))
    .map(([stage]) => stage);
}

export interface PipelineHookInput {
  baseUrl: string;
  record: ProjectRecord;
  pipeline: CiPipelineRow;
  user: UserRow | null;
  /** Every row of the pipeline, external statuses included (they name stages too). */
  rows: CiBuildRow[];
  users: Map<number, UserRow>;
  runners: Map<number, CiRunnerRow>;
}

export function presentPipelineHook(input: PipelineHookInput) {
  const { pipeline, record } = input;
  const project = projectHookAttrs(input.baseUrl, record);
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id: pipeline.id,
      ref: pipeline.ref,
      tag: pipeline.tag === 1,
      sha: pipeline.sha,
      before_sha: pipeline.before_sha,
      status: pipeline.status,
      stages: pipelineStages(input.rows),
      created_at: hookTime(pipeline.created_at),
      finished_at: hookTime(pipeline.finished_at),
      duration: pipeline.duration,
    },
    user: userHookAttrs(input.user, input.baseUrl),
    project: {
      name: project.name,
      description: project.description,
      web_url: project.web_url,
      avatar_url: project.avatar_url,
      git_ssh_url: project.git_ssh_url,
      git_http_url: project.git_http_url,
      namespace: project.namespace,
      visibility_level: project.visibility_level,
      path_with_namespace: project.path_with_namespace,
      default_branch: project.default_branch,
    },
    commit:
      pipeline.commit_committed_date === null
        ? null
        : {
            id: pipeline.sha,
            message: pipeline.commit_message,
            timestamp: xmlschema(pipeline.commit_committed_date),
            url: `${project.web_url}/commit/${pipeline.sha}`,
            author: { name: pipeline.commit_author_name, email: pipeline.commit_author_email },
          },
    builds: input.rows
      .filter((row) => row.type === 'build')
      .map((build) => {
        const runner = build.runner_id === null ? undefined : input.runners.get(build.runner_id);
        return {
          id: build.id,
          stage: build.stage,
          name: build.name,
          status: build.status,
          created_at: hookTime(build.created_at),
          started_at: hookTime(build.started_at),
          finished_at: hookTime(build.finished_at),
          when: build.when,
          manual: build.when === 'manual',
          user: userHookAttrs(build.user_id === null ? null : input.users.get(build.user_id), input.baseUrl),
          runner: runner
            ? {
                id: runner.id,
                description: runner.description,
                active: runner.active === 1,
                is_shared: runner.is_shared === 1,
              }
            : null,
          artifacts_file: { filename: build.artifacts_file, size: build.artifacts_size },
        };
      }),
  };
}
