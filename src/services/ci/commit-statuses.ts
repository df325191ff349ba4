// Statuses that other CI systems report on a commit (GitLab 8.13's POST /projects/:id/statuses/:sha).
// A status belongs to the newest pipeline of the commit on its ref, made when there is none; a report
// moves the caller's open (pending or running) status of that name and ref, or starts a new one, with
// the same state machine as builds, and the pipeline's status follows. An impossible move (`pending`
// twice) is refused with 8.13's words and leaves nothing behind.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { apiError, notFound } from '../../errors.ts';
import { buildEvent, type BuildEvent } from '../../ci/status.ts';
import { readCommits } from '../../git/commits.ts';
import { branchNamesContaining } from '../../git/refs.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { findOpenExternalStatus, insertCommitStatus } from '../../db/repositories/commit-statuses.ts';
import { findBuild, updateBuild } from '../../db/repositories/builds.ts';
import { findLatestPipelineFor, insertPipeline } from '../../db/repositories/pipelines.ts';
import { openCiTransaction } from './ci-announcements.ts';
import { applyBuildEvent } from './pipeline-processing.ts';
import type { CiBuildRow, CiPipelineRow, ProjectRecord, UserRow } from '../../db/types.ts';

const REPORTED_STATES = ['pending', 'running', 'success', 'failed', 'canceled'] as const;
export type ReportedState = (typeof REPORTED_STATES)[number];

export const isReportedState = (state: string): state is ReportedState =>
  (REPORTED_STATES as readonly string[]).includes(state);

/**
 * The events each reported state fires, in order. `must`: an event the status cannot take is an error
 * (8.13's bang events); otherwise it is skipped (`running` enqueues first only when it still can).
 */
const EVENTS: Record<ReportedState, Array<{ event: BuildEvent; must: boolean }>> = {
  pending: [{ event: 'enqueue', must: true }],
  running: [
    { event: 'enqueue', must: false },
    { event: 'run', must: true },
  ],
  success: [{ event: 'success', must: true }],
  failed: [{ event: 'drop', must: true }],
  canceled: [{ event: 'cancel', must: true }],
};

/** state_machines' InvalidTransition message, as 8.13's API passed it on. */
const invalidTransition = (event: BuildEvent, from: string) =>
  apiError(
    400,
    `Cannot transition status via :${event} from :${from} (Reason(s): Status cannot transition via "${event}")`,
  );

export interface StatusReport {
  /** The full sha of an existing commit. */
  sha: string;
  state: ReportedState;
  /** The ref given; otherwise the first branch (by name) holding the commit. */
  ref?: string;
  name: string;
  targetUrl?: string;
  description?: string;
}

export async function reportCommitStatus(
  deps: Deps,
  record: ProjectRecord,
  user: UserRow,
  report: StatusReport,
): Promise<{ status: CiBuildRow; pipeline: CiPipelineRow }> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const ref = report.ref ?? (await branchNamesContaining(repoPath, report.sha))[0];
  if (ref === undefined) throw notFound('References for commit');
  const commit = (await readCommits(repoPath, [report.sha])).get(report.sha);
  if (!commit) throw notFound('Commit');
  const at = now();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const ctx = await openCiTransaction(trx, deps.config, record, at);
    let pipeline =
      (await findLatestPipelineFor(trx, record.project.id, ref, report.sha)) ??
      (await insertPipeline(trx, {
        project_id: record.project.id,
        ref,
        sha: report.sha,
        before_sha: null,
        tag: 0,
        status: 'created',
        yaml_errors: null,
        source: 'external',
        user_id: user.id,
        commit_message: commit.message,
        commit_author_name: commit.authorName,
        commit_author_email: commit.authorEmail,
        commit_committed_date: commit.committedDate,
        committed_at: null,
        started_at: null,
        finished_at: null,
        duration: null,
        created_at: at,
        updated_at: at,
      }));
    let status =
      (await findOpenExternalStatus(trx, pipeline.id, user.id, report.name, ref)) ??
      (await insertCommitStatus(trx, {
        project_id: record.project.id,
        pipeline_id: pipeline.id,
        type: 'external',
        name: report.name,
        stage: 'external',
        stage_idx: null,
        status: 'created',
        ref,
        tag: 0,
        tag_list: '[]',
        allow_failure: 0,
        when: 'on_success',
        user_id: user.id,
        created_at: at,
        updated_at: at,
      }));
    const details: { target_url?: string; description?: string } = {};
    if (report.targetUrl !== undefined) details.target_url = report.targetUrl;
    if (report.description !== undefined) details.description = report.description;
    if (Object.keys(details).length > 0) {
      await updateBuild(trx, status.id, details);
      status = { ...status, ...details };
    }
    for (const { event, must } of EVENTS[report.state]) {
      if (!buildEvent(event).from.includes(status.status)) {
        if (must) throw invalidTransition(event, status.status);
        continue;
      }
      const moved = await applyBuildEvent(ctx, status, event);
      if (!moved) {
        // Another report moved it first: judge the event against where it is now.
        const current = (await findBuild(trx, status.id))!;
        throw invalidTransition(event, current.status);
      }
      status = moved.build;
      pipeline = moved.pipeline;
    }
    return { status, pipeline };
  });
}
