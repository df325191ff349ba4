// The Build entity of API v3, keys in GitLab 8.13's order: the build with its user (the User entity),
// its live artifacts ({filename, size}, null without), the commit from the repository, its runner and
// its pipeline. Action answers are shaped as the spec shows them: cancel, retry and play leave out the
// pipeline; erase and keep leave out artifacts_file and pipeline and carry `download_url: null`.
import { hasLiveArtifacts } from '../ci/artifacts.ts';
import { presentRepoCommit } from './commit.ts';
import { presentPipelineBasic } from './pipeline.ts';
import { presentRunner } from './runner.ts';
import { presentUser } from './user.ts';
import type { Commit } from '../git/commits.ts';
import type { CiBuildRow, CiPipelineRow, CiRunnerRow, UserRow } from '../db/types.ts';

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

export function presentBuild(
  build: CiBuildRow,
  context: BuildContext,
  baseUrl: string,
  now: string,
  form: BuildForm = 'full',
) {
  const core = {
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
    user: context.user ? presentUser(context.user, baseUrl) : null,
  };
  const commit = context.commit ? presentRepoCommit(context.commit) : null;
  const runner = context.runner ? presentRunner(context.runner) : null;
  if (form === 'erased') return { ...core, commit, runner, download_url: null };
  const artifacts_file = hasLiveArtifacts(build, now)
    ? { filename: build.artifacts_file!, size: build.artifacts_size ?? 0 }
    : null;
  if (form === 'action') return { ...core, artifacts_file, commit, runner };
  return { ...core, artifacts_file, commit, runner, pipeline: presentPipelineBasic(context.pipeline) };
}
