// Environments and deployments. A job with an `environment:` that succeeds records, in the transaction of
// its status change, what CreateDeploymentService did: the environment made on first use (its URL set
// from the job's expanded `url`), and for `action: start` a deployment (iid per project, ref, tag, sha,
// user, the job) announced to `deployment_events` hooks; `action: stop` stops it, today's `prepare`,
// `verify` and `access` only make sure it exists. People create, edit, delete and stop environments
// (stopping plays the `on_stop` job of the last deployment's pipeline) and, in v4, record deployments.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { ApiError, ValidationErrors, forbidden, paramValueInvalid, reloaded } from '../../errors.ts';
import {
  ENVIRONMENT_NAME,
  ENVIRONMENT_NAME_MESSAGE,
  environmentSlug,
  environmentType,
  expandJobEnvironment,
  isEnvironmentTier,
  jobEnvironment,
} from '../../ci/environments.ts';
import { pipelineVariables } from '../../ci/variables.ts';
import type { JobVariable } from '../../ci/variables.ts';
import {
  deleteEnvironment,
  externalUrlTaken,
  findEnvironmentByName,
  findProjectEnvironment,
  insertDeployment,
  insertEnvironment,
  lastDeployments,
  updateDeploymentStatus,
  updateEnvironment,
} from '../../db/repositories/environments.ts';
import { nextInternalId } from '../../db/repositories/issues.ts';
import { findBuild, latestBuildNamed } from '../../db/repositories/builds.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { presentDeploymentHook } from '../../presenters/hooks/deployment-hook-payload.ts';
import { isPlayable } from '../../policies/ci.ts';
import { BLANK_SHA } from '../../domain/types.ts';
import { enqueueProjectHooks } from '../hooks/hook-outbox.ts';
import { openCiTransaction, type CiTransaction } from './ci-announcements.ts';
import { playInTransaction } from './build-actions.ts';
import type {
  CiBuildRow,
  CiPipelineRow,
  DeploymentRow,
  EnvironmentRow,
  Executor,
  ProjectRecord,
} from '../../db/types.ts';

/** The variables a deploying job's name and URL are expanded with: today's pipeline ones, 8.x's, the file's. */
function deployVariables(record: ProjectRecord, pipeline: CiPipelineRow, build: CiBuildRow) {
  const variables = pipelineVariables({
    source: pipeline.source,
    ref: build.ref ?? pipeline.ref,
    tag: build.tag === 1,
    sha: pipeline.sha,
    beforeSha: pipeline.before_sha ?? BLANK_SHA,
    defaultBranch: record.project.default_branch,
    commitMessage: pipeline.commit_message ?? '',
    projectPath: `${record.namespace.path}/${record.project.path}`,
  });
  const more: Array<[string, string]> = [
    ['CI_BUILD_ID', String(build.id)],
    ['CI_JOB_ID', String(build.id)],
    ['CI_BUILD_NAME', build.name],
    ['CI_JOB_NAME', build.name],
    ['CI_BUILD_REF', pipeline.sha],
    ['CI_BUILD_REF_NAME', build.ref ?? pipeline.ref],
    ['CI_PIPELINE_ID', String(pipeline.id)],
    ['CI_PROJECT_ID', String(record.project.id)],
    ['CI_PROJECT_NAME', record.project.path],
    ['CI_PROJECT_NAMESPACE', record.namespace.path],
  ];
  for (const [key, value] of more) variables.set(key, value);
  if (build.stage !== null) variables.set('CI_BUILD_STAGE', build.stage);
  const yaml = build.yaml_variables === null ? [] : (JSON.parse(build.yaml_variables) as JobVariable[]);
  for (const variable of yaml) if (variable.value !== null) variables.set(variable.key, variable.value);
  return variables;
}

/** The project's environment of this name, made (available, with its slug) if it has none. */
async function findOrCreateEnvironment(
  trx: Executor,
  projectId: number,
  name: string,
  at: string,
): Promise<EnvironmentRow> {
  const found = await findEnvironmentByName(trx, projectId, name);
  if (found) return found;
  const created = await insertEnvironment(trx, {
    project_id: projectId,
    name,
    slug: environmentSlug(name),
    external_url: null,
    environment_type: environmentType(name),
    tier: null,
    created_at: at,
    updated_at: at,
  });
  return created ?? (await findEnvironmentByName(trx, projectId, name))!;
}

async function announceDeployment(
  ctx: CiTransaction,
  deployment: DeploymentRow,
  environment: EnvironmentRow,
  pipeline: CiPipelineRow | null,
): Promise<void> {
  if (!ctx.hooks.has('deployment_events')) return;
  const user =
    deployment.user_id === null ? null : ((await findUserById(ctx.trx, deployment.user_id)) ?? null);
  const payload = presentDeploymentHook({
    baseUrl: ctx.baseUrl,
    record: ctx.record,
    deployment,
    environment,
    pipeline,
    user,
  });
  await enqueueProjectHooks(ctx.trx, ctx.record.project.id, 'deployment_events', payload);
}

/**
 * What a job that just succeeded does to its environment (BuildSuccessWorker + CreateDeploymentService),
 * inside the transaction of its status change. A name that expands to nothing valid records nothing.
 */
export async function recordJobEnvironment(
  ctx: CiTransaction,
  pipeline: CiPipelineRow,
  build: CiBuildRow,
): Promise<void> {
  const declared = jobEnvironment(build.options);
  if (declared === null) return;
  const job = expandJobEnvironment(declared, deployVariables(ctx.record, pipeline, build));
  if (job.name.length === 0 || job.name.length > 255 || !ENVIRONMENT_NAME.test(job.name)) return;
  const projectId = ctx.record.project.id;
  let environment = await findOrCreateEnvironment(ctx.trx, projectId, job.name, ctx.at);
  const changes: Partial<EnvironmentRow> = {};
  if (job.url !== null && job.url !== '' && job.url !== environment.external_url)
    changes.external_url = job.url;
  if (job.action === 'stop' && environment.state !== 'stopped') changes.state = 'stopped';
  if (job.action === 'start' && environment.state !== 'available') changes.state = 'available';
  if (Object.keys(changes).length > 0) {
    environment = (await updateEnvironment(ctx.trx, environment.id, { ...changes, updated_at: ctx.at }))!;
  }
  if (job.action !== 'start') return;
  const deployment = await insertDeployment(ctx.trx, {
    project_id: projectId,
    environment_id: environment.id,
    iid: await nextInternalId(ctx.trx, projectId, 'deployments'),
    ref: build.ref ?? pipeline.ref,
    tag: build.tag,
    sha: pipeline.sha,
    user_id: build.user_id,
    deployable_id: build.id,
    on_stop: job.onStop,
    status: 'success',
    created_at: ctx.at,
    updated_at: ctx.at,
  });
  await announceDeployment(ctx, deployment, environment, pipeline);
}

export interface EnvironmentAttributes {
  name?: string;
  external_url?: string | null;
  tier?: string;
}

function isAddressableUrl(url: string): boolean {
  if (!/^https?:\/\/\S+$/i.test(url)) return false;
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/** Environment's validations (8.13's, with today's tier): 400 `{"message": {field: [...]}}`. */
async function checkedAttributes(
  trx: Executor,
  projectId: number,
  attributes: EnvironmentAttributes,
  current: EnvironmentRow | null,
): Promise<EnvironmentAttributes> {
  if (attributes.tier !== undefined && !isEnvironmentTier(attributes.tier)) throw paramValueInvalid('tier');
  const errors = new ValidationErrors();
  const name = attributes.name;
  if (name !== undefined) {
    if (name.trim() === '') errors.add('name', "can't be blank");
    if (name.length > 255) errors.add('name', 'is too long (maximum is 255 characters)');
    if (!ENVIRONMENT_NAME.test(name)) errors.add('name', ENVIRONMENT_NAME_MESSAGE);
    const other = errors.has('name') ? undefined : await findEnvironmentByName(trx, projectId, name);
    if (other && other.id !== current?.id) errors.add('name', 'has already been taken');
  }
  // before_validation :nullify_external_url
  const url = attributes.external_url === undefined ? undefined : attributes.external_url?.trim() || null;
  if (url) {
    if (url.length > 255) errors.add('external_url', 'is too long (maximum is 255 characters)');
    if (!isAddressableUrl(url)) errors.add('external_url', 'must be a valid URL');
    if (await externalUrlTaken(trx, projectId, url, current?.id ?? null)) {
      errors.add('external_url', 'has already been taken');
    }
  }
  errors.throwIfAny();
  return { ...attributes, external_url: url };
}

export async function createEnvironment(
  deps: Deps,
  projectId: number,
  attributes: EnvironmentAttributes & { name: string },
): Promise<EnvironmentRow> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const checked = await checkedAttributes(trx, projectId, attributes, null);
    const at = now();
    const created = await insertEnvironment(trx, {
      project_id: projectId,
      name: attributes.name,
      slug: environmentSlug(attributes.name),
      external_url: checked.external_url ?? null,
      environment_type: environmentType(attributes.name),
      tier: checked.tier ?? null,
      created_at: at,
      updated_at: at,
    });
    if (!created) throw new ApiError(400, { message: { name: ['has already been taken'] } });
    return created;
  });
}

/** Renames keep the slug (GitLab's never changes once made). */
export async function editEnvironment(
  deps: Deps,
  environment: EnvironmentRow,
  attributes: EnvironmentAttributes,
): Promise<EnvironmentRow> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const checked = await checkedAttributes(trx, environment.project_id, attributes, environment);
    const changes: Partial<EnvironmentRow> = { updated_at: now() };
    if (checked.name !== undefined) {
      changes.name = checked.name;
      changes.environment_type = environmentType(checked.name);
    }
    if (checked.external_url !== undefined) changes.external_url = checked.external_url;
    if (checked.tier !== undefined) changes.tier = checked.tier;
    const updated = await updateEnvironment(trx, environment.id, changes);
    if (!updated) throw new ApiError(404, { message: '404 Not found' });
    return updated;
  });
}

/** Deletes the environment and its deployments; false when it was already gone. */
export function destroyEnvironment(deps: Deps, environment: EnvironmentRow): Promise<boolean> {
  return deleteEnvironment(deps.db.kysely, environment.id);
}

/** Deployment#stop_action: the manual job named `on_stop` in the last deployment's pipeline, if any. */
export async function stopActionOf(
  db: Executor,
  environment: EnvironmentRow,
): Promise<CiBuildRow | undefined> {
  const last = (await lastDeployments(db, [environment.id])).get(environment.id);
  if (!last || last.on_stop === null || last.deployable_id === null) return undefined;
  const deployable = await findBuild(db, last.deployable_id);
  if (!deployable) return undefined;
  const action = await latestBuildNamed(db, deployable.pipeline_id, last.on_stop);
  return action && action.when === 'manual' ? action : undefined;
}

/**
 * Stops an environment: with a playable `on_stop` job, that job is played as the caller and the
 * environment is `stopping` until it succeeds; without one it is `stopped` at once (today's StopService;
 * 8.13 offered Stop only where such a job was); `force` stops without playing it. Answers the environment and the job played, if any.
 */
export async function stopEnvironment(
  deps: Deps,
  record: ProjectRecord,
  environment: EnvironmentRow,
  userId: number,
  force = false,
): Promise<{ environment: EnvironmentRow; job: CiBuildRow | null }> {
  if (environment.state === 'stopped') return { environment, job: null };
  return deps.db.kysely.transaction().execute(async (trx) => {
    const action = force ? undefined : await stopActionOf(trx, environment);
    const at = now();
    if (action && isPlayable(action, record.project)) {
      const ctx = await openCiTransaction(trx, deps.config, record, at);
      const job = await playInTransaction(ctx, action, userId);
      const stopping = await updateEnvironment(trx, environment.id, { state: 'stopping', updated_at: at });
      return { environment: stopping ?? environment, job };
    }
    const stopped = await updateEnvironment(trx, environment.id, { state: 'stopped', updated_at: at });
    return { environment: stopped ?? environment, job: null };
  });
}

export interface DeploymentAttributes {
  environment: string;
  sha: string;
  ref: string;
  tag: boolean;
  status: string;
}

/**
 * v4's POST /deployments: a deployment without a job, its environment made on first use; announced to
 * `deployment_events` hooks as a job's deployment is. The sha must be a commit of the repository (the
 * caller checks it).
 */
export async function createApiDeployment(
  deps: Deps,
  record: ProjectRecord,
  userId: number,
  attributes: DeploymentAttributes,
): Promise<DeploymentRow> {
  if (!['running', 'success', 'failed', 'canceled'].includes(attributes.status)) {
    throw paramValueInvalid('status');
  }
  const name = attributes.environment;
  if (name.trim() === '' || name.length > 255 || !ENVIRONMENT_NAME.test(name)) {
    throw new ApiError(400, { message: { name: [ENVIRONMENT_NAME_MESSAGE] } });
  }
  return deps.db.kysely.transaction().execute(async (trx) => {
    const at = now();
    const projectId = record.project.id;
    const environment = await findOrCreateEnvironment(trx, projectId, name, at);
    const deployment = await insertDeployment(trx, {
      project_id: projectId,
      environment_id: environment.id,
      iid: await nextInternalId(trx, projectId, 'deployments'),
      ref: attributes.ref,
      tag: attributes.tag ? 1 : 0,
      sha: attributes.sha,
      user_id: userId,
      deployable_id: null,
      on_stop: null,
      status: attributes.status,
      created_at: at,
      updated_at: at,
    });
    const ctx = await openCiTransaction(trx, deps.config, record, at);
    await announceDeployment(ctx, deployment, environment, null);
    return deployment;
  });
}

/**
 * v4's PUT /deployments/:id: a new status for a deployment recorded through the API (one a job made
 * follows its job: 403), announced to `deployment_events` hooks when it changed.
 */
export async function updateApiDeploymentStatus(
  deps: Deps,
  record: ProjectRecord,
  deployment: DeploymentRow,
  status: string,
): Promise<DeploymentRow> {
  if (deployment.deployable_id !== null) {
    throw forbidden('Deployments created using GitLab CI can not be updated using the API');
  }
  if (status === deployment.status) return deployment;
  return deps.db.kysely.transaction().execute(async (trx) => {
    const at = now();
    const updated = reloaded(await updateDeploymentStatus(trx, deployment.id, status, at));
    const environment = (await findProjectEnvironment(trx, record.project.id, updated.environment_id))!;
    const ctx = await openCiTransaction(trx, deps.config, record, at);
    await announceDeployment(ctx, updated, environment, null);
    return updated;
  });
}
