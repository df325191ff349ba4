// Reads for the CI pages: pages of pipelines with their stages, one pipeline with its builds, pages of
// builds, a build's trace in pieces, its artifacts' listing and single files, and the pipeline status
// the commit and branch pages show. The rows are the API's own shapes (listPipelinesOf, listBuildsOf),
// so a page shows exactly what the API answers. A page costs a fixed number of queries: the page of
// rows (one more row than shown, to know whether a next page exists, instead of a count), its users,
// and the newest builds of all its pipelines in one read.
import type { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import { now } from '../lib/clock.ts';
import { notFound } from '../errors.ts';
import { latestBuildsOfPipelines, type BuildListFilter } from '../db/repositories/builds.ts';
import { listPipelines, pipelineIdsForSha, findProjectPipeline } from '../db/repositories/pipelines.ts';
import { compositeStatus, isCompleted } from '../ci/status.ts';
import { hasLiveArtifacts } from '../ci/artifacts.ts';
import { readTraceRange, traceLength, tracePath } from '../storage/traces.ts';
import {
  findArtifactsFile,
  openArtifactsEntry,
  readArtifactsEntries,
  type ArtifactsEntry,
} from '../storage/artifacts.ts';
import { listPipelinesOf, pipelineList, type PipelineScope } from './pipeline-views.ts';
import { commitsOf, listBuildsOf, projectBuildList } from './build-views.ts';
import { presentRepoCommit } from '../presenters/api-v3/commit.ts';
import type { CiBuildRow, CiPipelineRow, ProjectRecord } from '../db/types.ts';
import type { CiStatus } from '../domain/types.ts';

const CI_PAGE_SIZE = 30;

/** A job as the pipelines pages draw it. */
export interface JobSummary {
  id: number;
  name: string;
  status: CiStatus;
  /** `build`: one of ours (a page of its own); otherwise another CI system's status with its link. */
  type: string;
  target_url: string | null;
  allow_failure: boolean;
  manual: boolean;
}

export interface StageSummary {
  name: string;
  status: CiStatus;
  jobs: JobSummary[];
}

/** The newest rows of one pipeline grouped by stage, in stage order, each stage with its status. */
function stagesOf(rows: CiBuildRow[]): StageSummary[] {
  const stages = new Map<string, { idx: number; rows: CiBuildRow[] }>();
  for (const row of rows) {
    const name = row.stage ?? 'external';
    const stage = stages.get(name) ?? { idx: row.stage_idx ?? Number.MAX_SAFE_INTEGER, rows: [] };
    stage.rows.push(row);
    stages.set(name, stage);
  }
  return [...stages]
    .sort((a, b) => a[1].idx - b[1].idx)
    .map(([name, stage]) => ({
      name,
      status:
        compositeStatus(
          stage.rows.map((row) => ({
            status: row.status,
            allowFailure: row.allow_failure === 1,
            when: row.when,
            count: 1,
          })),
        ) ?? 'success',
      jobs: stage.rows.map((row) => ({
        id: row.id,
        name: row.name,
        status: row.status,
        type: row.type,
        target_url: row.target_url,
        allow_failure: row.allow_failure === 1,
        manual: row.when === 'manual',
      })),
    }));
}

async function stagesOfPipelines(deps: Deps, ids: number[]): Promise<Map<number, StageSummary[]>> {
  const byPipeline = new Map<number, CiBuildRow[]>();
  for (const row of await latestBuildsOfPipelines(deps.db.kysely, ids)) {
    const list = byPipeline.get(row.pipeline_id) ?? [];
    list.push(row);
    byPipeline.set(row.pipeline_id, list);
  }
  return new Map(ids.map((id) => [id, stagesOf(byPipeline.get(id) ?? [])]));
}

const windowOf = (page: number) => ({ offset: (page - 1) * CI_PAGE_SIZE, limit: CI_PAGE_SIZE + 1 });

/** A page of the project's pipelines (newest first) with their stages, and whether there are more. */
export async function listPipelinesPage(
  deps: Deps,
  record: ProjectRecord,
  scope: PipelineScope | undefined,
  page: number,
) {
  const list = await pipelineList(deps, record, scope, undefined);
  const rows = await list.page(windowOf(page));
  return {
    pipelines: await pipelinesWithStages(deps, rows.slice(0, CI_PAGE_SIZE)),
    hasNext: rows.length > CI_PAGE_SIZE,
  };
}

/** Pipelines as the pages list them: presented, with their commit's title and their stages. */
export async function pipelinesWithStages(deps: Deps, rows: CiPipelineRow[]) {
  const [presented, stages] = await Promise.all([
    listPipelinesOf(deps, rows),
    stagesOfPipelines(
      deps,
      rows.map((row) => row.id),
    ),
  ]);
  return presented.map((pipeline, i) => ({
    ...pipeline,
    commit_title: commitLine(rows[i]!),
    stages: stages.get(pipeline.id)!,
  }));
}

/** The newest build of each name in one pipeline, as the builds page shows them (a merge request's tab). */
export async function pipelineBuilds(deps: Deps, record: ProjectRecord, pipeline: CiPipelineRow) {
  return listFullBuildsOf(deps, record, await latestBuildsOfPipelines(deps.db.kysely, [pipeline.id]));
}

function commitLine(pipeline: CiPipelineRow): string | null {
  return pipeline.commit_message === null ? null : pipeline.commit_message.split('\n', 1)[0]!;
}

/** One pipeline with its stages and jobs and its commit (null when the repository lost it). */
export async function loadPipelinePage(deps: Deps, record: ProjectRecord, pipeline: CiPipelineRow) {
  const [[presented], stages, commits] = await Promise.all([
    listPipelinesOf(deps, [pipeline]),
    stagesOfPipelines(deps, [pipeline.id]),
    commitsOf(deps, record, [pipeline.sha]),
  ]);
  const commit = commits.get(pipeline.sha);
  return {
    pipeline: { ...presented!, commit_title: commitLine(pipeline) },
    stages: stages.get(pipeline.id)!,
    commit: commit ? presentRepoCommit(commit) : null,
  };
}

/** A build as the API's GET shows it (the `full` form, with artifacts and pipeline). */
type FullBuild = Extract<Awaited<ReturnType<typeof listBuildsOf>>[number], { pipeline: unknown }>;

async function listFullBuildsOf(deps: Deps, record: ProjectRecord, rows: CiBuildRow[]): Promise<FullBuild[]> {
  const builds = await listBuildsOf(deps, record, rows, 'full');
  return builds.filter((build): build is FullBuild => 'pipeline' in build);
}

/** One build as the API's GET shows it. */
export async function loadFullBuild(deps: Deps, record: ProjectRecord, row: CiBuildRow): Promise<FullBuild> {
  return (await listFullBuildsOf(deps, record, [row]))[0]!;
}

/** A page of the project's builds (newest first), as the API shows them, and whether there are more. */
export async function listBuildsPage(
  deps: Deps,
  record: ProjectRecord,
  statuses: BuildListFilter['statuses'],
  page: number,
) {
  const rows = await projectBuildList(deps, { projectId: record.project.id, statuses }).page(windowOf(page));
  return {
    builds: await listFullBuildsOf(deps, record, rows.slice(0, CI_PAGE_SIZE)),
    hasNext: rows.length > CI_PAGE_SIZE,
  };
}

/** The newest pipeline of a commit, or undefined while it has none. */
export async function newestPipelineOfCommit(
  deps: Deps,
  record: ProjectRecord,
  sha: string,
): Promise<CiPipelineRow | undefined> {
  const ids = await pipelineIdsForSha(deps.db.kysely, record.project.id, sha);
  if (ids.length === 0) return undefined;
  return findProjectPipeline(deps.db.kysely, record.project.id, Math.max(...ids));
}

/** The newest pipeline of each of these branches, by name (one read for all of them). */
export async function newestPipelinesOfRefs(
  deps: Deps,
  record: ProjectRecord,
  refs: string[],
): Promise<Map<string, CiPipelineRow>> {
  if (refs.length === 0) return new Map();
  const rows = await listPipelines(
    deps.db.kysely,
    { projectId: record.project.id, newestOfRefs: refs },
    refs.length,
    0,
  );
  return new Map(rows.map((row) => [row.ref, row]));
}

/** The page shows at most this much of a trace, from its end; the raw trace has the rest. */
const TRACE_TAIL_BYTES = 256 * 1024;
/** One poll carries at most this much; a reader that fell behind asks again at once. */
const TRACE_PIECE_BYTES = 256 * 1024;

export interface TracePiece {
  text: string;
  /** Byte offsets of the piece in the trace. */
  start: number;
  end: number;
  /** The trace's length now. */
  length: number;
  /** More was there than one piece carries: ask again at once. */
  more: boolean;
}

/**
 * Where a piece read from `bytes` should end: after its last newline, so escape sequences and UTF-8
 * characters are never cut; the whole of it at the trace's end once the build has finished. A single
 * line longer than the piece is cut at a character boundary.
 */
function pieceEnd(bytes: Buffer, atTraceEnd: boolean, finished: boolean): number {
  if (atTraceEnd && finished) return bytes.length;
  const newline = bytes.lastIndexOf(0x0a);
  if (newline >= 0) return newline + 1;
  if (atTraceEnd) return 0;
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1]! & 0xc0) === 0x80) end--;
  return end > 0 && bytes[end - 1]! >= 0xc0 ? end - 1 : end;
}

async function readPiece(
  file: string,
  start: number,
  length: number,
  finished: boolean,
): Promise<TracePiece> {
  const bytes = await readTraceRange(file, start, Math.min(TRACE_PIECE_BYTES, length - start));
  const end = pieceEnd(bytes, start + bytes.length >= length, finished);
  return {
    text: bytes.subarray(0, end).toString('utf8'),
    start,
    end: start + end,
    length,
    more: length - start > TRACE_PIECE_BYTES,
  };
}

function traceFileOf(deps: Deps, build: CiBuildRow): string | undefined {
  return build.erased_at === null ? tracePath(deps.config.dataDir, build) : undefined;
}

/**
 * The end of the trace the page shows first: at most TRACE_TAIL_BYTES, starting on a line. An erased
 * build's trace is gone (empty).
 */
export async function traceTail(deps: Deps, build: CiBuildRow): Promise<TracePiece> {
  const file = traceFileOf(deps, build);
  const length = file ? await traceLength(file) : 0;
  if (!file || length === 0) return { text: '', start: 0, end: 0, length, more: false };
  let start = Math.max(0, length - TRACE_TAIL_BYTES);
  if (start > 0) {
    const head = await readTraceRange(file, start, Math.min(4096, length - start));
    const newline = head.indexOf(0x0a);
    start += newline >= 0 ? newline + 1 : 0;
  }
  return readPiece(file, start, length, isCompleted(build.status));
}

/**
 * What the trace holds after `offset` (what an open page has not seen yet). A trace that became shorter
 * than the offset (replaced whole, or erased) is read again from its start.
 */
export async function traceSince(deps: Deps, build: CiBuildRow, offset: number): Promise<TracePiece> {
  const file = traceFileOf(deps, build);
  const length = file ? await traceLength(file) : 0;
  if (!file) return { text: '', start: 0, end: 0, length: 0, more: false };
  return readPiece(file, offset > length ? 0 : offset, length, isCompleted(build.status));
}

/** The build's live archive on disk; 404 without one. */
async function liveArchive(deps: Deps, build: CiBuildRow): Promise<string> {
  const file = hasLiveArtifacts(build, now())
    ? await findArtifactsFile(deps.config.dataDir, build, build.artifacts_file!)
    : undefined;
  if (!file) throw notFound();
  return file.path;
}

export interface ArtifactsListing {
  /** The directory shown, '' for the archive's root, else ending with `/`. */
  dir: string;
  dirs: string[];
  files: ArtifactsEntry[];
}

/** The entries directly inside `dir` of the build's live archive; 404 without metadata or such a directory. */
export async function listArtifactsDirectory(
  deps: Deps,
  build: CiBuildRow,
  dir: string,
): Promise<ArtifactsListing> {
  await liveArchive(deps, build);
  const entries = build.artifacts_metadata
    ? await readArtifactsEntries(deps.config.dataDir, build)
    : undefined;
  if (!entries) throw notFound();
  const prefix = dir === '' || dir.endsWith('/') ? dir : `${dir}/`;
  if (prefix !== '' && !entries.some((entry) => entry.path === prefix)) throw notFound();
  const dirs: string[] = [];
  const files: ArtifactsEntry[] = [];
  for (const entry of entries) {
    if (!entry.path.startsWith(prefix) || entry.path === prefix) continue;
    const rest = entry.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash === rest.length - 1) dirs.push(entry.path);
    else if (slash < 0) files.push(entry);
  }
  return { dir: prefix, dirs, files };
}

/** One file of the build's live archive, streamed; 404 when there is none of that path. */
export async function artifactsFile(
  deps: Deps,
  build: CiBuildRow,
  path: string,
): Promise<{ size: number; stream: Readable }> {
  const archive = await liveArchive(deps, build);
  const entry = path === '' || path.endsWith('/') ? undefined : await openArtifactsEntry(archive, path);
  if (!entry) throw notFound();
  return entry;
}
