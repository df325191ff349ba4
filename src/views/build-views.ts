// Reads of builds for API v3: a page of a project's (or a commit's) builds, one build, its trace and its
// artifacts. A page costs a fixed number of reads whatever its length: the rows (ids found on an index
// first), then their users, runners and pipelines in one query each and their commits in one git process.
import type { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import { now } from '../lib/clock.ts';
import { notFound, recordNotFound, unauthorized } from '../errors.ts';
import {
  countBuildsUpTo,
  countRunnerBuildsUpTo,
  findBuildByToken,
  findProjectBuild,
  latestBuildNamed,
  listBuilds,
  listRunnerBuilds,
  type BuildListFilter,
} from '../db/repositories/builds.ts';
import {
  latestSuccessfulPipeline,
  pipelineIdsForSha,
  pipelinesByIds,
  projectListCounts,
} from '../db/repositories/pipelines.ts';
import { findProjectRecordById, findProjectRecordsByIds } from '../db/repositories/projects.ts';
import { runnersByIds } from '../db/repositories/runners.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { readCommits, type Commit } from '../git/commits.ts';
import { projectRepositoryPath } from '../git/repository.ts';
import { presentBuilds, type BuildContext, type BuildForm } from '../presenters/api-v3/build.ts';
import { hasLiveArtifacts } from '../ci/artifacts.ts';
import { presentJobs } from '../presenters/api-v4/job.ts';
import { runnerStatus } from './runner-views.ts';
import { findArtifactsFile, openArtifactsFile } from '../storage/artifacts.ts';
import { readTraceStream, traceExists, tracePath } from '../storage/traces.ts';
import { findCommitId } from './repository-access.ts';
import type { CiBuildRow, CiPipelineRow, ProjectRecord } from '../db/types.ts';
import type { CiStatus } from '../domain/types.ts';

interface PageWindow {
  offset: number;
  limit: number;
}

/** Commits by id from the project's repository; none when it has no repository (or git fails). */
export async function commitsOf(
  deps: Deps,
  record: ProjectRecord,
  shas: string[],
): Promise<Map<string, Commit>> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  if (shas.length === 0) return new Map();
  try {
    return await readCommits(repoPath, shas, {
      rememberedFor: `${record.project.id}\0${record.project.created_at}`,
      noneWithoutRepository: true,
    });
  } catch {
    return new Map();
  }
}

/** What each build is shown with: its users, runners, pipelines and commits read once for all. */
async function buildContextsOf(
  deps: Deps,
  record: ProjectRecord,
  builds: readonly CiBuildRow[],
): Promise<(build: CiBuildRow) => BuildContext> {
  const db = deps.db.kysely;
  const ids = (key: 'user_id' | 'runner_id') =>
    builds.map((build) => build[key]).filter((id): id is number => id !== null);
  const [users, runners, pipelines] = await Promise.all([
    usersByIds(db, ids('user_id')),
    runnersByIds(db, ids('runner_id')),
    pipelinesByIds(
      db,
      builds.map((build) => build.pipeline_id),
    ),
  ]);
  const commits = await commitsOf(
    deps,
    record,
    [...pipelines.values()].map((pipeline) => pipeline.sha),
  );
  return (build) => {
    const pipeline = pipelines.get(build.pipeline_id)!;
    return {
      user: build.user_id === null ? null : (users.get(build.user_id) ?? null),
      runner: build.runner_id === null ? null : (runners.get(build.runner_id) ?? null),
      pipeline,
      commit: commits.get(pipeline.sha) ?? null,
    };
  };
}

/** Builds as the Build entity, their users, runners, pipelines and commits read once for all. */
export async function listBuildsOf(
  deps: Deps,
  record: ProjectRecord,
  builds: CiBuildRow[],
  form: BuildForm = 'full',
) {
  if (builds.length === 0) return [];
  const contextOf = await buildContextsOf(deps, record, builds);
  return presentBuilds(builds, contextOf, deps.config.externalUrl, now(), form);
}

/** Builds as v4's Job entity, with the same batched reads. */
export async function listJobsOf(deps: Deps, record: ProjectRecord, builds: CiBuildRow[]) {
  if (builds.length === 0) return [];
  const contextOf = await buildContextsOf(deps, record, builds);
  return presentJobs(builds, record, contextOf, deps.config.externalUrl, now(), (runner) =>
    runnerStatus(runner),
  );
}

/**
 * A page of a runner's jobs (JobBasicWithProject: each Ci::Job with its project's identity), newest
 * first or oldest first, of one status or all; one batch of job context per project on the page.
 */
export async function runnerJobsPage(
  deps: Deps,
  runnerId: number,
  status: CiStatus | undefined,
  sort: 'asc' | 'desc',
  page: { limit: number; offset: number },
) {
  const db = deps.db.kysely;
  const builds = await listRunnerBuilds(db, runnerId, status, sort, page.limit, page.offset);
  const records = await findProjectRecordsByIds(db, [...new Set(builds.map((build) => build.project_id))]);
  const presented = new Map<number, { job: ReturnType<typeof presentJobs>[number]; record: ProjectRecord }>();
  for (const record of records) {
    const own = builds.filter((build) => build.project_id === record.project.id);
    for (const job of await listJobsOf(deps, record, own)) presented.set(job.id, { job, record });
  }
  return builds.flatMap((build) => {
    const entry = presented.get(build.id);
    return entry ? [entry] : [];
  });
}

export async function countRunnerJobs(
  deps: Deps,
  runnerId: number,
  status: CiStatus | undefined,
  cap: number,
) {
  return cappedCount(countRunnerBuildsUpTo(deps.db.kysely, runnerId, status, cap + 1), cap);
}

export async function loadJob(deps: Deps, record: ProjectRecord, build: CiBuildRow) {
  return (await listJobsOf(deps, record, [build]))[0]!;
}

/**
 * GET /api/v4/job: the job a CI_JOB_TOKEN belongs to, as Ci::Job, while it runs. A token no job holds, or
 * that of a job no longer running (finished, cancelled, erased), authenticates nobody: 401, as GitLab's
 * Ci::AuthJobFinder refuses it.
 */
export async function runningJobOfToken(deps: Deps, token: string) {
  const db = deps.db.kysely;
  const build = await findBuildByToken(db, token);
  const record = build && (await findProjectRecordById(db, build.project_id));
  if (!build || !record || build.status !== 'running' || build.erased_at !== null) throw unauthorized();
  return loadJob(deps, record, build);
}

export async function loadBuild(deps: Deps, record: ProjectRecord, build: CiBuildRow, form?: BuildForm) {
  return (await listBuildsOf(deps, record, [build], form))[0]!;
}

/** A page of builds: how many there are (undefined: more than `cap`) and the rows of one page. */
export interface BuildList {
  count(cap: number): Promise<number | undefined>;
  page(window: PageWindow): Promise<CiBuildRow[]>;
}

const EMPTY_LIST: BuildList = { count: async () => 0, page: async () => [] };

/** A bounded count: up to cap + 1 index entries, undefined beyond `cap`. */
export async function cappedCount(counted: Promise<number>, cap: number): Promise<number | undefined> {
  const count = await counted;
  return count > cap ? undefined : count;
}

export function projectBuildList(deps: Deps, filter: BuildListFilter): BuildList {
  const db = deps.db.kysely;
  const everything = !filter.pipelineIds && (!filter.statuses || filter.statuses.length === 0);
  return {
    // All of a project's builds are counted as they are written; a filtered list counts a bounded walk.
    count: async (cap) =>
      everything
        ? (await projectListCounts(db, filter.projectId)).builds
        : cappedCount(countBuildsUpTo(db, filter, cap + 1), cap),
    page: (window) => listBuilds(db, filter, window.limit, window.offset),
  };
}

/**
 * The builds of every pipeline of a commit: 404 `404 Not Found` when the repository has no such commit,
 * an empty list when it has no pipeline.
 */
export async function commitBuildList(
  deps: Deps,
  record: ProjectRecord,
  sha: string,
  statuses: BuildListFilter['statuses'],
): Promise<BuildList> {
  const found = await findCommitId(deps, record, sha);
  if (!found) throw notFound();
  const pipelineIds = await pipelineIdsForSha(deps.db.kysely, record.project.id, found.commitId);
  if (pipelineIds.length === 0) return EMPTY_LIST;
  return projectBuildList(deps, { projectId: record.project.id, statuses, pipelineIds });
}

/** The project's build with that id; 404 `404 Not Found` for anything else (undefined: no id at all). */
export async function loadBuildOr404(
  deps: Deps,
  record: ProjectRecord,
  id: number | undefined,
): Promise<CiBuildRow> {
  const build = id === undefined ? undefined : await findProjectBuild(deps.db.kysely, record.project.id, id);
  if (!build) throw notFound();
  return build;
}

/**
 * The trace as stored (secrets were masked on the way in), growing while the build runs: 404 before the
 * build ever ran and after it was erased; empty while a running build has sent nothing yet.
 */
export async function buildTrace(deps: Deps, build: CiBuildRow): Promise<Readable | ''> {
  if (build.erased_at !== null) throw notFound();
  const file = tracePath(deps.config.dataDir, build);
  if (await traceExists(file)) return readTraceStream(file);
  if (build.started_at === null) throw notFound();
  return '';
}

export interface ArtifactsDownload {
  filename: string;
  size: number;
  stream: Readable;
}

/** The build's archive while its artifacts live; 404 `404 Not Found` without (or once expired). */
export async function buildArtifacts(deps: Deps, build: CiBuildRow): Promise<ArtifactsDownload> {
  const file = hasLiveArtifacts(build, now())
    ? await findArtifactsFile(deps.config.dataDir, build, build.artifacts_file!)
    : undefined;
  if (!file) throw notFound();
  return { filename: build.artifacts_file!, size: file.size, stream: openArtifactsFile(file.path) };
}

/**
 * The artifacts of job `name` on `ref`, as GitLab chose them: the newest successful pipeline of the ref,
 * then its newest build of that name, which must itself have succeeded. 404 `404 Not found` when there
 * is no such build.
 */
export async function artifactsOfJobOnRef(
  deps: Deps,
  record: ProjectRecord,
  ref: string,
  name: string | undefined,
): Promise<ArtifactsDownload> {
  const db = deps.db.kysely;
  const pipeline: CiPipelineRow | undefined =
    name === undefined ? undefined : await latestSuccessfulPipeline(db, record.project.id, ref);
  const build = pipeline && (await latestBuildNamed(db, pipeline.id, name!));
  if (!build || build.status !== 'success' || !hasLiveArtifacts(build, now())) throw recordNotFound();
  return buildArtifacts(deps, build);
}
