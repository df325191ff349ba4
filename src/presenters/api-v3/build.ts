// The Build entity of API v3, keys in GitLab 8.13's order: the build with its user (the User entity),
// its live artifacts ({filename, size}, null without), the commit from the repository, its runner and
// its pipeline. Action answers are shaped as the spec shows them: cancel, retry and play leave out the
// pipeline; erase and keep leave out artifacts_file and pipeline and carry `download_url: null`.
import { hasLiveArtifacts } from '../../ci/artifacts.ts';
import { presentRepoCommit } from './commit.ts';
import { presentPipelineBasic } from './pipeline.ts';
import { presentRunner } from './runner.ts';
import { presentUser } from './user.ts';
import type { Commit } from '../../git/commits.ts';
import type { CiBuildRow, CiPipelineRow, CiRunnerRow, UserRow } from '../../db/types.ts';

/** What a build is shown with, read in batches by the caller. */
export interface BuildContext {
  user: UserRow | null;
  runner: CiRunnerRow | null;
  pipeline: CiPipelineRow;
  /** Null when the commit is gone from the repository. */
  commit: Commit | null;
}

/** `full`: lists and GET; `action`: cancel, retry, play; `erased`: erase and keep. */
export type BuildForm = 'full' | 'action' | 'erased';

/**
 * Builds that share users, runners, pipelines and commits: each of those is presented once per call and
 * the same object is embedded wherever it recurs (a page of 20 builds usually names one user and one
 * commit; presenting them again for every build was a third of the page's allocations).
 */
export function presentBuilds(
  builds: readonly CiBuildRow[],
  contextOf: (build: CiBuildRow) => BuildContext,
  baseUrl: string,
  now: string,
  form: BuildForm = 'full',
) {
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
  return builds.map((build): ErasedBuild | ActionBuild | FullBuild => {
    const context = contextOf(build);
    const user = once(context.user, (row) => presentUser(row, baseUrl));
    const commit = once(context.commit, presentRepoCommit);
    const runner = once(context.runner, presentRunner);
    if (form === 'erased') return presentBuildForm(build, user, { commit, runner, download_url: null });
    const artifacts_file = hasLiveArtifacts(build, now)
      ? { filename: build.artifacts_file!, size: build.artifacts_size ?? 0 }
      : null;
    if (form === 'action') return presentBuildForm(build, user, { artifacts_file, commit, runner });
    const pipeline = once(context.pipeline, presentPipelineBasic)!;
    return presentBuildForm(build, user, { artifacts_file, commit, runner, pipeline });
  });
}

type PresentedUser = ReturnType<typeof presentUser>;
type BuildCommit = ReturnType<typeof presentRepoCommit> | null;
type BuildRunner = ReturnType<typeof presentRunner> | null;
type ArtifactsFile = { filename: string; size: number } | null;
type ErasedBuild = BuildFields<{ commit: BuildCommit; runner: BuildRunner; download_url: null }>;
type ActionBuild = BuildFields<{ artifacts_file: ArtifactsFile; commit: BuildCommit; runner: BuildRunner }>;
/** The form of lists and GET: the only one with `pipeline`. */
type FullBuild = BuildFields<{
  artifacts_file: ArtifactsFile;
  commit: BuildCommit;
  runner: BuildRunner;
  pipeline: ReturnType<typeof presentPipelineBasic>;
}>;
type BuildFields<Rest extends object> = ReturnType<typeof presentBuildForm<Rest>>;

/**
 * The fields every form starts with, in GitLab's order, then the form's own. One literal with the form's
 * fields spread last: spreading a presented core into each form instead cost about seven times the CPU
 * (a microbenchmark of the full form: 0.74 µs a build with JSON.stringify, against 5.4 µs).
 */
function presentBuildForm<Rest extends object>(build: CiBuildRow, user: PresentedUser | null, rest: Rest) {
  return {
    id: build.id,
    status: build.status,
    stage: build.stage,
    name: build.name,
    ref: build.ref,
    tag: build.tag === 1,
    coverage: build.coverage,
    created_at: build.created_at,
    started_at: build.started_at,
    finished_at: build.finished_at,
    user,
    ...rest,
  };
}
