// Who may take, report on and read a build: runners by their tags and assignments, and the build's own
// token (or its project's runners token, which old runners used) for the calls a running job makes.
import crypto from 'node:crypto';
import { AccessLevel } from '../domain/types.ts';
import type { ProjectAccess } from './access.ts';
import type { CiBuildRow, CiRunnerRow, ProjectRecord } from '../db/types.ts';

function sameSecret(given: string, expected: string | null | undefined): boolean {
  if (!expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/**
 * Runner#can_pick?: a locked runner only serves projects it is assigned to; a runner without tags or
 * not running untagged builds refuses what does not suit it; every tag the build needs is the runner's.
 */
export function runnerMayPick(runner: CiRunnerRow, buildTags: string[], assignedToProject: boolean): boolean {
  if (runner.locked === 1 && !assignedToProject) return false;
  if (runner.run_untagged !== 1 && buildTags.length === 0) return false;
  const runnerTags = new Set(JSON.parse(runner.tag_list) as string[]);
  return buildTags.every((tag) => runnerTags.has(tag));
}

/** Build-token calls: the build's token, or the project's runners token. */
export function isBuildCredential(
  token: string | undefined,
  build: { token: string | null },
  project: { runners_token: string },
): boolean {
  if (!token) return false;
  return sameSecret(token, build.token) || sameSecret(token, project.runners_token);
}

/** A running build of the same pipeline in a later stage: it may fetch `source`'s artifacts. */
export function isDependentBuild(
  dependent: Pick<CiBuildRow, 'pipeline_id' | 'status' | 'stage_idx'>,
  source: Pick<CiBuildRow, 'pipeline_id' | 'stage_idx'>,
): boolean {
  return (
    dependent.pipeline_id === source.pipeline_id &&
    dependent.status === 'running' &&
    dependent.stage_idx !== null &&
    source.stage_idx !== null &&
    dependent.stage_idx > source.stage_idx
  );
}

/** The shared registration token or a project's runners token (compared in constant time). */
export function isRegistrationToken(given: string, expected: string): boolean {
  return sameSecret(given, expected);
}

/** admin_build (secret variables): masters and owners, while the project has builds turned on. */
export function canAdminBuilds(access: ProjectAccess, record: ProjectRecord): boolean {
  return access.canRead && access.level >= AccessLevel.Master && record.project.builds_enabled === 1;
}
