// Who may take, report on and read a build: runners by their tags and assignments, the build's own
// token (or its project's runners token, which old runners used) for the calls a running job makes, and
// people through API v3 (GitLab 8.13's read_build, update_build, read_pipeline, update_pipeline).
import crypto from 'node:crypto';
import { AccessLevel, Visibility } from '../domain/types.ts';
import type { ProjectAccess } from './access.ts';
import type { CiBuildRow, CiRunnerRow, ProjectRecord, ProjectRow, UserRow } from '../db/types.ts';

function sameSecret(given: string, expected: string | null | undefined): boolean {
  if (!expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** A paused runner (`active` off) is handed no builds: 8.13 answered its register call 404. */
export function canRunnerAskForBuilds(runner: Pick<CiRunnerRow, 'active'>): boolean {
  return runner.active === 1;
}

/**
 * Runner#can_pick?: a locked runner only serves projects it is assigned to; a runner without tags or
 * not running untagged builds refuses what does not suit it; every tag the build needs is the runner's.
 */
export function canRunnerPick(runner: CiRunnerRow, buildTags: string[], assignedToProject: boolean): boolean {
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
/** v4 job calls: the job's own token only (a project's runners token does not stand in for it). */
export function isJobToken(token: string | undefined, build: { token: string | null }): boolean {
  return token !== undefined && token !== '' && sameSecret(token, build.token);
}

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

type BuildsProject = Pick<ProjectRow, 'builds_enabled' | 'public_builds' | 'visibility_level'>;

/**
 * read_build: reporters and above; on a public or internal project also whoever may read it, while its
 * `public_builds` is on. Nobody while builds are off. Every build read of API v3 asks this (GitLab's list
 * of a project's builds forgot to, and showed them to guests).
 */
export function canReadBuilds(access: ProjectAccess, project: BuildsProject): boolean {
  return (
    access.canRead &&
    project.builds_enabled === 1 &&
    (access.level >= AccessLevel.Reporter ||
      (project.public_builds === 1 && project.visibility_level !== Visibility.Private))
  );
}

/**
 * update_build: developers and above (cancel, retry, erase, keep artifacts, and play: GitLab let anyone
 * who could read builds play a manual job, which would let outsiders start deployments).
 */
export function canUpdateBuilds(access: ProjectAccess, project: BuildsProject): boolean {
  return project.builds_enabled === 1 && access.level >= AccessLevel.Developer;
}

/** read_pipeline: reporters and above, and anyone who may read a public or internal project. */
export function canReadPipelines(access: ProjectAccess, project: BuildsProject): boolean {
  return (
    project.builds_enabled === 1 &&
    access.canRead &&
    (access.level >= AccessLevel.Reporter || project.visibility_level !== Visibility.Private)
  );
}

/** update_pipeline (retry, cancel): developers and above. */
export const canUpdatePipelines = canUpdateBuilds;

type ActionBuild = Pick<CiBuildRow, 'status' | 'commands' | 'when'>;

/** Build#retryable?: a finished build with something to run, while builds are on. */
export function isRetryable(build: ActionBuild, project: BuildsProject): boolean {
  return (
    project.builds_enabled === 1 &&
    Boolean(build.commands) &&
    ['success', 'failed', 'canceled'].includes(build.status)
  );
}

/** Build#playable?: a manual job still waiting (skipped) with something to run, while builds are on. */
export function isPlayable(build: ActionBuild, project: BuildsProject): boolean {
  return (
    project.builds_enabled === 1 &&
    Boolean(build.commands) &&
    ((build.when === 'manual' && build.status === 'skipped') || build.status === 'scheduled')
  );
}

/** admin_build (secret variables, triggers): masters and owners, while the project has builds turned on. */
export function canAdminBuilds(access: ProjectAccess, record: ProjectRecord): boolean {
  return access.canRead && access.level >= AccessLevel.Master && record.project.builds_enabled === 1;
}

/** What a build's token may do in the project it fetches: read its code, nothing more. */
export const BUILD_FETCH_ACCESS: ProjectAccess = {
  level: AccessLevel.Reporter,
  projectMember: null,
  groupMember: null,
  admin: false,
  canRead: true,
};

/**
 * git fetch with `gitlab-ci-token` and a build's token: only while that build runs, only its own project
 * (with builds on), never a push. 8.13 also let a build with a user reach that user's other projects;
 * a token that leaks from a job log would then open them too, so Labrador keeps it to the build's project.
 */
export function canBuildFetch(
  build: Pick<CiBuildRow, 'status' | 'project_id'>,
  record: ProjectRecord,
): boolean {
  return (
    build.status === 'running' &&
    build.project_id === record.project.id &&
    record.project.builds_enabled === 1
  );
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

export function showRunnerRefusal(runner: CiRunnerRow, caller: RunnerCaller): string | null {
  if (runner.is_shared === 1 || caller.admin || caller.managesRunner) return null;
  return 'No access granted';
}

export function updateRunnerRefusal(runner: CiRunnerRow, caller: RunnerCaller): string | null {
  if (caller.admin) return null;
  if (runner.is_shared === 1) return 'Runner is shared';
  return caller.managesRunner ? null : 'No access granted';
}

export function deleteRunnerRefusal(
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
export function enableRunnerRefusal(runner: CiRunnerRow, caller: RunnerCaller): string | null {
  if (runner.is_shared === 1) return 'Runner is shared';
  if (runner.locked === 1) return 'Runner is locked';
  if (caller.admin) return null;
  return caller.managesRunner ? null : 'No access granted';
}

/** A runner keeps at least one project: taking away its last one is refused (remove the runner instead). */
export function disableRunnerRefusal(projectCount: number): string | null {
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

/**
 * Pipeline schedules as v4's policy has them: whoever may read pipelines reads schedules; developers
 * create and play them; a schedule's owner (still a developer) or a master changes it, its variables,
 * its owner and deletes it.
 */
export function canCreatePipelineSchedules(access: ProjectAccess, record: ProjectRecord): boolean {
  return canUpdateBuilds(access, record.project);
}

export function canAdminPipelineSchedule(
  access: ProjectAccess,
  record: ProjectRecord,
  schedule: { owner_id: number | null },
  viewerId: number,
): boolean {
  if (!canUpdateBuilds(access, record.project)) return false;
  return access.level >= AccessLevel.Master || schedule.owner_id === viewerId;
}

/**
 * Environments and deployments as 8.13's ProjectPolicy had them: reporters read them (not guests, nor
 * outsiders of a public project), developers create environments and deployments and stop an
 * environment, masters edit and delete (v3). Today's v4 lets developers edit and delete too (a
 * developer deletes only a stopped environment). Nobody while builds are off.
 */
export function canReadEnvironments(access: ProjectAccess, record: ProjectRecord): boolean {
  return access.canRead && record.project.builds_enabled === 1 && access.level >= AccessLevel.Reporter;
}

export function canCreateEnvironments(access: ProjectAccess, record: ProjectRecord): boolean {
  return canReadEnvironments(access, record) && access.level >= AccessLevel.Developer;
}

export function canUpdateEnvironmentsV3(access: ProjectAccess, record: ProjectRecord): boolean {
  return canReadEnvironments(access, record) && access.level >= AccessLevel.Master;
}

export function canDestroyEnvironmentV4(
  access: ProjectAccess,
  record: ProjectRecord,
  environment: { state: string },
): boolean {
  return canCreateEnvironments(access, record) && (environment.state === 'stopped' || access.admin);
}
