// Builds as runners drive them: taking a pending build, reporting its state and whole trace, appending
// trace pieces, uploading and fetching artifacts; and cancelling. Every status change runs through the
// CI state machine (pipeline-processing.ts) in one transaction with its hook deliveries.
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import {
  ApiError,
  apiError,
  forbidden,
  grapeError,
  notFound,
  paramValueInvalid,
  recordNotFound,
  reloaded,
} from '../../errors.ts';
import { extractCoverage } from '../../ci/coverage.ts';
import { parseDuration } from '../../ci/durations.ts';
import { maskingStream, maskSecrets } from '../../ci/secret-mask.ts';
import { pendingCandidates } from '../../db/repositories/build-queue.ts';
import { maskedValuesFor } from '../../db/repositories/ci-variables.ts';
import { findBuild, findBuildByToken, updateBuild } from '../../db/repositories/builds.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { runnerProjectIds } from '../../db/repositories/runners.ts';
import { isBuildCredential, isDependentBuild, isJobToken, canRunnerPick } from '../../policies/ci.ts';
import { hasLiveArtifacts } from '../../ci/artifacts.ts';
import {
  appendTrace,
  readTrace,
  traceLength,
  TraceTooLargeError,
  tracePath,
  writeTrace,
} from '../../storage/traces.ts';
import {
  ArtifactsTooLargeError,
  findArtifactsFile,
  openArtifactsFile,
  removeArtifacts,
  removeReports,
  storeArtifacts,
  storeReport,
} from '../../storage/artifacts.ts';
import { DOTENV_MAX_BYTES, parseDotenv } from '../../ci/dotenv.ts';
import { REPORT_TYPES } from '../../ci/report-types.ts';
import {
  deleteJobArtifacts,
  findJobArtifact,
  insertJobArtifact,
} from '../../db/repositories/job-artifacts.ts';
import { openCiTransaction } from './ci-announcements.ts';
import { applyBuildEvent, type BuildChanges } from './pipeline-processing.ts';
import { failBuild, knownFailureReason } from './build-failures.ts';
import { jobTimeoutSeconds, parseOptions } from '../../ci/job-limits.ts';
import type { CiBuildRow, CiRunnerRow, ProjectRecord } from '../../db/types.ts';

/** Pending builds looked at per round while a runner's tags rule candidates out. */
const CANDIDATES_PER_ROUND = 10;
/** A trace stops growing here (413), whatever a client sends. */
const TRACE_MAX_BYTES = 64 * 1024 * 1024;
/** A running build's updated_at is refreshed by its trace at most this often (the stuck-build sweep reads it). */
const TOUCH_EVERY_MS = 60_000;

/**
 * Hands the runner the first pending build it may take (GitLab's order, tags and locks) and moves it to
 * running for this runner, in one transaction: on PostgreSQL the candidates are row-locked with SKIP
 * LOCKED, so runners asking different processes at once never get the same build. Answers its id.
 */
export async function claimBuild(deps: Deps, runner: CiRunnerRow): Promise<number | undefined> {
  const db = deps.db.kysely;
  const assigned =
    runner.is_shared === 1 && runner.locked === 1
      ? new Set(await runnerProjectIds(db, runner.id))
      : undefined;
  return db.transaction().execute(async (trx) => {
    for (let offset = 0; ; offset += CANDIDATES_PER_ROUND) {
      const candidates = await pendingCandidates(trx, deps.db.dialect, runner, {
        limit: CANDIDATES_PER_ROUND,
        offset,
      });
      for (const candidate of candidates) {
        const tags = JSON.parse(candidate.tag_list) as string[];
        const isAssigned = runner.is_shared !== 1 || (assigned?.has(candidate.project_id) ?? false);
        if (!canRunnerPick(runner, tags, isAssigned)) continue;
        const build = await findBuild(trx, candidate.id);
        const record = build && (await findProjectRecordById(trx, build.project_id));
        if (!build || !record) continue;
        const at = now();
        const ctx = await openCiTransaction(trx, deps.config, record, at);
        const timeoutS = jobTimeoutSeconds(parseOptions(build.options), record.project.build_timeout);
        const moved = await applyBuildEvent(ctx, build, 'run', {
          runner_id: runner.id,
          timeout_at: new Date(Date.parse(at) + timeoutS * 1000).toISOString(),
        });
        if (moved) return moved.build.id;
      }
      if (candidates.length < CANDIDATES_PER_ROUND) return undefined;
    }
  });
}

/** A build id as the runner writes it in paths (`builds/42`); undefined when it names none. */
function runnerBuildId(text: string): number | undefined {
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= 2_147_483_647 ? id : undefined;
}

/** What a stored trace never shows: the runners token, the build's token, masked variables' values. */
async function secretsOf(deps: Deps, record: ProjectRecord, build: CiBuildRow): Promise<string[]> {
  const groupId = record.namespace.type === 'Group' ? record.namespace.id : null;
  const masked = await maskedValuesFor(deps.db.kysely, record.project.id, groupId);
  return [record.project.runners_token, build.token ?? '', ...masked];
}

/** Coverage from the finished build's trace with the project's regex (GitLab's update_coverage). */
async function finishingChanges(deps: Deps, record: ProjectRecord, build: CiBuildRow): Promise<BuildChanges> {
  const regex = record.project.build_coverage_regex;
  if (!regex) return {};
  const trace = await readTrace(tracePath(deps.config.dataDir, build));
  const coverage = trace ? extractCoverage(trace.toString('utf8'), regex) : undefined;
  return coverage === undefined ? {} : { coverage };
}

export interface RunnerUpdate {
  state: string | undefined;
  /** The whole trace; it replaces what was stored. */
  trace: string | undefined;
  /** v4: why a failed job failed, and its script's exit code. */
  failureReason?: string;
  exitCode?: number;
}

/**
 * PUT builds/:id: only the runner's own running build (404 otherwise, which stops the runner); the trace
 * replaces the stored one; `success` and `failed` finish the build. Answers what GitLab rendered: the
 * transition's outcome, or null for other states.
 */
export async function updateBuildFromRunner(
  deps: Deps,
  runner: CiRunnerRow,
  idText: string,
  update: RunnerUpdate,
): Promise<boolean | null> {
  const db = deps.db.kysely;
  const id = runnerBuildId(idText);
  const build = id === undefined ? undefined : await findBuild(db, id);
  if (!build || build.runner_id !== runner.id || build.status !== 'running') throw recordNotFound();
  if (build.erased_at !== null) throw forbidden('Build has been erased!');
  const record = reloaded(await findProjectRecordById(db, build.project_id));
  return applyRunnerState(deps, build, record, update);
}

/** The state a runner reports for its running build: `success` and `failed` finish it. */
async function applyRunnerState(
  deps: Deps,
  build: CiBuildRow,
  record: ProjectRecord,
  update: RunnerUpdate,
): Promise<boolean | null> {
  const db = deps.db.kysely;
  if (update.trace !== undefined) {
    const masked = maskSecrets(Buffer.from(update.trace), await secretsOf(deps, record, build));
    await writeTrace(tracePath(deps.config.dataDir, build), masked);
  }
  const event = update.state === 'success' ? 'success' : update.state === 'failed' ? 'drop' : undefined;
  if (!event) {
    await touchBuild(deps, build);
    return null;
  }
  const extra = await finishingChanges(deps, record, build);
  const moved = await db.transaction().execute(async (trx) => {
    const ctx = await openCiTransaction(trx, deps.config, record, now());
    if (event === 'success') return applyBuildEvent(ctx, build, event, extra);
    return failBuild(ctx, build, {
      ...extra,
      failure_reason: knownFailureReason(update.failureReason),
      exit_code: update.exitCode ?? null,
    });
  });
  return moved !== undefined;
}

/**
 * The job a v4 runner call names with its job token (GitLab's authenticate_job!): 404 when there is no
 * such job, 403 when the token is not its own, and 403 carrying `Job-Status` once it no longer runs (a
 * cancelled or finished job), which is how runner 17 learns to stop (network/remote_job_state_response.go).
 */
export async function runningJobForToken(deps: Deps, idText: string, token: string | undefined) {
  const db = deps.db.kysely;
  const id = runnerBuildId(idText);
  const build = id === undefined ? undefined : await findBuild(db, id);
  const record = build && (await findProjectRecordById(db, build.project_id));
  if (!build || !record) throw notFound();
  if (!isJobToken(token, build)) throw forbidden();
  if (build.status !== 'running' || build.erased_at !== null) {
    throw new ApiError(
      403,
      { message: '403 Forbidden - Job is not processing on runner' },
      { 'Job-Status': build.status },
    );
  }
  return { build, record };
}

/**
 * PUT /api/v4/jobs/:id: the job's own token reports `running` (a keep-alive) or finishes it with
 * `success` or `failed`. Answers the job's status afterwards (sent back as `Job-Status`).
 */
export async function updateJobFromRunner(
  deps: Deps,
  idText: string,
  token: string | undefined,
  report: Pick<RunnerUpdate, 'state' | 'failureReason' | 'exitCode'>,
): Promise<string> {
  const { build, record } = await runningJobForToken(deps, idText, token);
  await applyRunnerState(deps, build, record, { ...report, trace: undefined });
  return (await findBuild(deps.db.kysely, build.id))?.status ?? build.status;
}

/**
 * GET /api/v4/jobs/:id/artifacts: the token must be that of a running job (the job itself, or a later job
 * of its pipeline that depends on it); a finished job's token no longer downloads anything.
 */
export async function artifactsForJobToken(deps: Deps, idText: string, token: string | undefined) {
  const holder = token ? await findBuildByToken(deps.db.kysely, token) : undefined;
  if (!holder || holder.status !== 'running') throw forbidden();
  return artifactsForToken(deps, idText, token);
}

/** A report without a state change still shows the build is alive (for the stuck-build sweep). */
async function touchBuild(deps: Deps, build: CiBuildRow): Promise<void> {
  if (Date.now() - Date.parse(build.updated_at) < TOUCH_EVERY_MS) return;
  await updateBuild(deps.db.kysely, build.id, { updated_at: now() });
}

/**
 * A build addressed with its own token (or its project's runners token): 404, then 403. With
 * `dependents`, the token of a running build that may take this build's artifacts also counts.
 */
async function buildForToken(deps: Deps, idText: string, token: string | undefined, dependents = false) {
  const db = deps.db.kysely;
  const id = runnerBuildId(idText);
  const build = id === undefined ? undefined : await findBuild(db, id);
  const record = build && (await findProjectRecordById(db, build.project_id));
  if (!build || !record) throw notFound();
  if (isBuildCredential(token, build, record.project)) return { build, record };
  const dependent = dependents && token ? await findBuildByToken(db, token) : undefined;
  if (!dependent || !isDependentBuild(dependent, build)) throw forbidden();
  return { build, record };
}

/** Ruby's String#to_i: leading digits (after blanks and a sign), 0 when there are none. */
function rubyInteger(text: string): number {
  const match = /^\s*([+-]?\d+)/.exec(text);
  return match ? Number(match[1]) : 0;
}

export interface TraceAppend {
  token: string | undefined;
  /** `<offset>-<end>`: where this piece starts in the trace. */
  contentRange: string | undefined;
  body: Readable;
  /** v4: only the job's own token, and only while it runs (else 403 with `Job-Status`). */
  runningOnly?: boolean;
}

/**
 * PATCH builds/:id/trace.txt: appends a piece at the end of the stored trace. A piece that does not start
 * where the trace ends answers 416 with the stored range; the build's status rides along so a canceled
 * build's runner stops.
 */
export async function appendBuildTrace(
  deps: Deps,
  idText: string,
  append: TraceAppend,
): Promise<{ status: string; length: number }> {
  const { build, record } = append.runningOnly
    ? await runningJobForToken(deps, idText, append.token)
    : await buildForToken(deps, idText, append.token);
  if (build.erased_at !== null) throw forbidden('Build has been erased!');
  if (append.contentRange === undefined) throw grapeError(400, '400 Missing header Content-Range');
  const offset = rubyInteger(append.contentRange.split('-')[0] ?? '');
  const file = tracePath(deps.config.dataDir, build);
  const current = await traceLength(file);
  if (offset !== current) {
    append.body.resume();
    throw new ApiError(416, { error: '416 Range Not Satisfiable' }, { Range: `0-${current}` });
  }
  const secrets = await secretsOf(deps, record, build);
  let length: number;
  try {
    length = await appendTrace(file, offset, append.body, maskingStream(secrets), TRACE_MAX_BYTES);
  } catch (error) {
    if (error instanceof TraceTooLargeError) throw apiError(413, '413 Request Entity Too Large');
    throw error;
  }
  await touchBuild(deps, build);
  return { status: build.status, length };
}

/** The build an artifacts upload is for: its token, and it must be running and not erased. */
export async function buildForUpload(
  deps: Deps,
  idText: string,
  token: string | undefined,
): Promise<CiBuildRow> {
  const { build } = await buildForToken(deps, idText, token);
  if (build.status !== 'running') throw forbidden('Build is not running!');
  if (build.erased_at !== null) throw forbidden('Build has been erased!');
  return build;
}

/**
 * Streams the archive into place (413 at the size limit) with its entry list, and records it with its
 * expiry (`expire_in`, e.g. "1 week"; none when absent or unreadable).
 */
export async function storeBuildArtifacts(
  deps: Deps,
  build: CiBuildRow,
  filename: string,
  file: Readable,
  expireIn: string | undefined,
): Promise<void> {
  let stored;
  try {
    stored = await storeArtifacts(deps.config.dataDir, build, filename, file, deps.config.artifactsMaxBytes);
  } catch (error) {
    if (error instanceof ArtifactsTooLargeError) {
      file.resume();
      throw apiError(413, '413 Request Entity Too Large');
    }
    throw error;
  }
  const at = now();
  await updateBuild(deps.db.kysely, build.id, {
    artifacts_file: stored.filename,
    artifacts_size: stored.size,
    artifacts_metadata: stored.metadata,
    artifacts_expire_at: artifactsExpireAt(expireIn, at),
    updated_at: at,
  });
}

/**
 * Checks an upload's `artifact_type` and `artifact_format` (GitLab's values; a report must come in its
 * type's format): answers the report type, or undefined for the archive.
 */
export function uploadKind(type: string | undefined, format: string | undefined): string | undefined {
  const kind = type ?? 'archive';
  if (kind === 'archive') {
    if ((format ?? 'zip') !== 'zip') throw paramValueInvalid('artifact_format');
    return undefined;
  }
  const known = REPORT_TYPES[kind];
  if (!known) throw paramValueInvalid('artifact_type');
  if ((format ?? known.format) !== known.format) throw paramValueInvalid('artifact_format');
  return kind;
}

/** A dotenv upload's text (gunzipped when sent as gzip), no more than the size it may have. */
async function dotenvText(file: string, format: string): Promise<string | { error: string }> {
  const bytes = await fsp.readFile(file);
  try {
    const text =
      format === 'gzip' ? zlib.gunzipSync(bytes, { maxOutputLength: DOTENV_MAX_BYTES + 1 }) : bytes;
    return text.toString('utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      return { error: `Dotenv Artifact Too Big. Maximum Allowable Size: ${DOTENV_MAX_BYTES}` };
    return { error: 'Invalid Format' };
  }
}

/**
 * A report upload (`artifact_type` junit, dotenv …) kept as the job's artifact of that type, beside its
 * archive: 400 when the job has one of that type already, or a dotenv report GitLab would refuse (its
 * variables are kept for the jobs after it).
 */
export async function storeBuildReport(
  deps: Deps,
  build: CiBuildRow,
  fileType: string,
  filename: string,
  file: Readable,
  expireIn: string | undefined,
): Promise<void> {
  const format = REPORT_TYPES[fileType]!.format;
  const taken = () => apiError(400, 'another artifact of the same type already exists');
  if (await findJobArtifact(deps.db.kysely, build.id, fileType)) {
    file.resume();
    throw taken();
  }
  let stored;
  try {
    stored = await storeReport(
      deps.config.dataDir,
      build,
      fileType,
      filename,
      file,
      deps.config.artifactsMaxBytes,
    );
  } catch (error) {
    if (error instanceof ArtifactsTooLargeError) {
      file.resume();
      throw apiError(413, '413 Request Entity Too Large');
    }
    throw error;
  }
  let dotenv: string | null = null;
  if (fileType === 'dotenv') {
    const text = await dotenvText(stored.path, format);
    const parsed = typeof text === 'string' ? parseDotenv(text) : text;
    if ('error' in parsed) {
      await fsp.rm(stored.path, { force: true });
      throw apiError(400, parsed.error);
    }
    dotenv = JSON.stringify(parsed.variables);
  }
  const at = now();
  const row = await insertJobArtifact(deps.db.kysely, {
    project_id: build.project_id,
    job_id: build.id,
    file_type: fileType,
    file_format: format,
    file: stored.filename,
    size: stored.size,
    dotenv_variables: dotenv,
    expire_at: artifactsExpireAt(expireIn, at),
    created_at: at,
  });
  if (!row) throw taken();
}

/** A build's report artifacts go: their rows, then their files. */
export async function removeBuildReports(deps: Deps, build: CiBuildRow): Promise<void> {
  await deleteJobArtifacts(deps.db.kysely, build.id);
  await removeReports(deps.config.dataDir, build);
}

/** When artifacts kept for `expireIn` (`1 week`, `3600`…) from `at` expire; null for never. */
function artifactsExpireAt(expireIn: string | undefined, at: string): string | null {
  const seconds = expireIn === undefined ? undefined : parseDuration(expireIn);
  return seconds === undefined ? null : new Date(Date.parse(at) + seconds * 1000).toISOString();
}

/** An `expire_in` that reached the upload after its file (a multipart field sent last). */
export async function setArtifactsExpiry(
  deps: Deps,
  buildId: number,
  expireIn: string | undefined,
): Promise<void> {
  const at = now();
  await updateBuild(deps.db.kysely, buildId, {
    artifacts_expire_at: artifactsExpireAt(expireIn, at),
    updated_at: at,
  });
}

/**
 * GET builds/:id/artifacts with that build's token, or the token of a running later job of its pipeline
 * (the one that depends on it): the archive, 404 when it has none (or they expired).
 */
export async function artifactsForToken(deps: Deps, idText: string, token: string | undefined) {
  const { build } = await buildForToken(deps, idText, token, true);
  const file = hasLiveArtifacts(build, now())
    ? await findArtifactsFile(deps.config.dataDir, build, build.artifacts_file!)
    : undefined;
  if (!file) throw notFound();
  return { size: file.size, filename: build.artifacts_file!, stream: openArtifactsFile(file.path) };
}

/** DELETE builds/:id/artifacts: the archive and its metadata go. */
export async function deleteArtifactsForToken(
  deps: Deps,
  idText: string,
  token: string | undefined,
): Promise<void> {
  const { build } = await buildForToken(deps, idText, token);
  await removeArtifacts(deps.config.dataDir, build);
  await updateBuild(deps.db.kysely, build.id, {
    artifacts_file: null,
    artifacts_size: null,
    artifacts_metadata: null,
    updated_at: now(),
  });
}

/**
 * Cancels a created, pending or running build (others stay as they are); its runner learns it from the
 * `Build-Status` of its next trace call. Answers the build as it is afterwards.
 */
export async function cancelBuild(deps: Deps, buildId: number): Promise<CiBuildRow | undefined> {
  const db = deps.db.kysely;
  const build = await findBuild(db, buildId);
  const record = build && (await findProjectRecordById(db, build.project_id));
  if (!build || !record) return undefined;
  const extra = await finishingChanges(deps, record, build);
  const moved = await db.transaction().execute(async (trx) => {
    const ctx = await openCiTransaction(trx, deps.config, record, now());
    return applyBuildEvent(ctx, build, 'cancel', extra);
  });
  return moved?.build ?? build;
}

/** The build a `gitlab-ci-token` git password names (any status: the caller's policy decides). */
export async function buildByGitToken(deps: Deps, token: string): Promise<CiBuildRow | undefined> {
  if (token === '') return undefined;
  return findBuildByToken(deps.db.kysely, token);
}
