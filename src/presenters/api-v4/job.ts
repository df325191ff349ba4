// Jobs as v4 shows them (Ci::Job over Ci::JobBasic), keys in GitLab's order: the build with its user
// (Entities::User), commit (Entities::Commit), pipeline (PipelineBasic), web_url, then its artifacts,
// runner (Ci::Runner) and tags. Durations are seconds; a running job's duration counts up to `now`.
import { hasLiveArtifacts } from '../../ci/artifacts.ts';
import { presentCommit } from './commit.ts';
import { presentPipelineBasic } from './pipeline.ts';
import { presentRunnerV4 } from './runner.ts';
import { presentUser } from './user.ts';
import type { BuildContext } from '../api-v3/build.ts';
import type { CiBuildRow, CiRunnerRow, ProjectRecord } from '../../db/types.ts';
import type { RunnerStatus } from '../../domain/types.ts';
import { projectUrls } from '../../domain/paths.ts';

const seconds = (from: string, to: string) => Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);

export function presentJobs(
  builds: readonly CiBuildRow[],
  record: ProjectRecord,
  contextOf: (build: CiBuildRow) => BuildContext,
  baseUrl: string,
  now: string,
  runnerStatusOf: (runner: CiRunnerRow) => RunnerStatus,
) {
  const webUrl = projectUrls(baseUrl, record).webUrl;
  const presented = new Map<object, unknown>();
  const once = <T extends object, U>(row: T | null, present: (row: T) => U): U | null => {
    if (row === null) return null;
    let shown = presented.get(row) as U | undefined;
    if (shown === undefined) {
      shown = present(row);
      presented.set(row, shown);
    }
    return shown;
  };
  return builds.map((build) => {
    const context = contextOf(build);
    const live = hasLiveArtifacts(build, now);
    const archive = live ? { filename: build.artifacts_file!, size: build.artifacts_size ?? 0 } : undefined;
    return {
      id: build.id,
      status: build.status,
      stage: build.stage,
      name: build.name,
      ref: build.ref,
      tag: build.tag === 1,
      coverage: build.coverage,
      allow_failure: build.allow_failure === 1,
      created_at: build.created_at,
      started_at: build.started_at,
      finished_at: build.finished_at,
      erased_at: build.erased_at,
      duration: build.started_at === null ? null : seconds(build.started_at, build.finished_at ?? now),
      queued_duration:
        build.started_at === null
          ? build.status === 'pending'
            ? seconds(build.queued_at ?? build.created_at, now)
            : null
          : seconds(build.queued_at ?? build.created_at, build.started_at),
      user: once(context.user, (row) => presentUser(row, baseUrl)),
      commit: once(context.commit, (commit) => presentCommit(commit, record, baseUrl)),
      pipeline: once(context.pipeline, (row) => presentPipelineBasic(row, record, baseUrl)),
      // What the runner said (rows from before migration 141, and v1 runners, read script_failure).
      ...(build.status === 'failed' ? { failure_reason: build.failure_reason ?? 'script_failure' } : {}),
      web_url: `${webUrl}/builds/${build.id}`,
      project: { ci_job_token_scope_enabled: false },
      ...(archive ? { artifacts_file: archive } : {}),
      artifacts: archive
        ? [{ file_type: 'archive', size: archive.size, filename: archive.filename, file_format: 'zip' }]
        : [],
      runner: once(context.runner, (row) => presentRunnerV4(row, runnerStatusOf(row))),
      runner_manager: null,
      artifacts_expire_at: live ? build.artifacts_expire_at : null,
      archived: false,
      tag_list: (JSON.parse(build.tag_list) as string[]).sort(),
    };
  });
}
