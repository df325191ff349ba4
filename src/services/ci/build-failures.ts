// A job failing, as today's GitLab treats it: the runner's failure reason and exit code are kept, an
// exit code listed in `allow_failure: exit_codes` makes it a failure that is allowed, and `retry:`
// creates it again at once (in the same transaction, before the pipeline is settled, so the pipeline
// never shows failed in between) while it has retries left and the reason (or exit code) is one its
// `when` names.
import { countBuildsNamed } from '../../db/repositories/builds.ts';
import { isAllowedExitCode, parseOptions, RETRY_REASONS, shouldRetry } from '../../ci/job-limits.ts';
import { retryInTransaction } from './build-actions.ts';
import type { CiTransaction } from './ci-announcements.ts';
import { applyBuildEvent, type BuildChanges } from './pipeline-processing.ts';
import type { CiBuildRow } from '../../db/types.ts';

/** A runner's failure reason as stored: one GitLab knows, else `unknown_failure`; none: `script_failure`. */
export function knownFailureReason(reason: string | undefined): string {
  if (reason === undefined || reason === '') return 'script_failure';
  return RETRY_REASONS.includes(reason) ? reason : 'unknown_failure';
}

/** Drops the build to failed with its reason; answers the move, or undefined when it had moved on. */
export async function failBuild(
  ctx: CiTransaction,
  build: CiBuildRow,
  changes: BuildChanges & { failure_reason: string; exit_code: number | null },
) {
  const options = parseOptions(build.options);
  const extra: BuildChanges = {
    ...changes,
    ...(isAllowedExitCode(options, changes.exit_code) ? { allow_failure: 1 } : {}),
  };
  const retries = (await countBuildsNamed(ctx.trx, build.pipeline_id, build.name)) - 1;
  if (!shouldRetry(options, changes.failure_reason, changes.exit_code, retries)) {
    return applyBuildEvent(ctx, build, 'drop', extra);
  }
  const moved = await applyBuildEvent(ctx, build, 'drop', extra, false);
  if (moved) await retryInTransaction(ctx, moved.build, build.user_id);
  return moved;
}
