// Who may take, report on and read a build: runners by their tags and assignments, and the build's own
// token (or its project's runners token, which old runners used) for the calls a running job makes.
import crypto from 'node:crypto';
import { AccessLevel, Visibility } from '../domain/types.ts';
import type { ProjectAccess } from './access.ts';
import type { CiBuildRow, CiRunnerRow, ProjectRecord, UserRow } from '../db/types.ts';

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

/** admin_build (secret variables, triggers): masters and owners, while the project has builds turned on. */
export function canAdminBuilds(access: ProjectAccess, record: ProjectRecord): boolean {
  return access.canRead && access.level >= AccessLevel.Master && record.project.builds_enabled === 1;
}

/**
 * read_commit_status: reporters and above, and anyone signed in who may see a public project, or an
 * internal one without being external (guests of a private project may not).
 */
export function canReadCommitStatuses(
  viewer: UserRow | null,
  access: ProjectAccess,
  record: ProjectRecord,
): boolean {
  if (!access.canRead) return false;
  if (access.level >= AccessLevel.Reporter) return true;
  const visibility = record.project.visibility_level;
  if (visibility === Visibility.Public) return true;
  return visibility === Visibility.Internal && viewer !== null && viewer.external !== 1;
}

/** create_commit_status: developers and above report statuses of other CI systems. */
export function canCreateCommitStatus(access: ProjectAccess): boolean {
  return access.canRead && access.level >= AccessLevel.Developer;
}

/** Whether a trigger named by its token may run builds of the project the call names. */
export function triggerBelongsTo(trigger: { project_id: number }, projectId: number): boolean {
  return trigger.project_id === projectId;
}

/**
 * What a caller is to a runner: an administrator, or someone who manages a project the (specific) runner
 * is assigned to. Each rule below answers null when allowed, or the reason 8.13 refused with (403).
 */
export interface RunnerCaller {
  admin: boolean;
  /** The runner is specific and assigned to a project the caller is a master or owner of. */
  managesRunner: boolean;
}

export function refuseShowRunner(runner: CiRunnerRow, caller: RunnerCaller): string | null {
  if (runner.is_shared === 1 || caller.admin || caller.managesRunner) return null;
  return 'No access granted';
}

export function refuseUpdateRunner(runner: CiRunnerRow, caller: RunnerCaller): string | null {
  if (caller.admin) return null;
  if (runner.is_shared === 1) return 'Runner is shared';
  return caller.managesRunner ? null : 'No access granted';
}

export function refuseDeleteRunner(
  runner: CiRunnerRow,
  caller: RunnerCaller,
  projectCount: number,
): string | null {
  if (caller.admin) return null;
  if (runner.is_shared === 1) return 'Runner is shared';
  if (projectCount > 1) return 'Runner associated with more than one project';
  return caller.managesRunner ? null : 'No access granted';
}

/** Enabling a runner for a project: never a shared or locked one, and only one the caller manages. */
export function refuseEnableRunner(runner: CiRunnerRow, caller: RunnerCaller): string | null {
  if (runner.is_shared === 1) return 'Runner is shared';
  if (runner.locked === 1) return 'Runner is locked';
  if (caller.admin) return null;
  return caller.managesRunner ? null : 'No access granted';
}

/** A runner keeps at least one project: taking away its last one is refused (remove the runner instead). */
export function refuseDisableRunner(projectCount: number): string | null {
  return projectCount <= 1
    ? 'Only one project associated with the runner. Please remove the runner instead'
    : null;
}

/** Whether a runner's details list this project: administrators see all, others their own projects. */
export function runnerProjectShown(caller: { admin: boolean }, access: ProjectAccess): boolean {
  return caller.admin || access.level >= AccessLevel.Guest;
}

/** The runner's token is shown to administrators, and for specific runners to those who may see them. */
export function runnerTokenShown(runner: CiRunnerRow, caller: { admin: boolean }): boolean {
  return caller.admin || runner.is_shared !== 1;
}
