// Reads of environments and deployments: a page of a project's environments (their last deployments in
// one more query when asked), one environment, a page of deployments with their environments, users and
// jobs read once for the page (the jobs as each API version's entity, through the build views).
import type { Deps } from '../deps.ts';
import { recordNotFound } from '../errors.ts';
import {
  countDeploymentsUpTo,
  countEnvironments,
  deployableBuilds,
  environmentsByIds,
  findEnvironmentByName,
  findProjectDeployment,
  findProjectEnvironment,
  lastDeployments,
  listDeployments,
  listEnvironments,
  type DeploymentFilter,
  type DeploymentOrder,
  type EnvironmentFilter,
} from '../db/repositories/environments.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { stopActionOf } from '../services/ci/environments.ts';
import { listBuildsOf, listJobsOf } from './build-views.ts';
import type { CiBuildRow, DeploymentRow, EnvironmentRow, ProjectRecord, UserRow } from '../db/types.ts';

export type { DeploymentFilter, DeploymentOrder, EnvironmentFilter };

export interface DeploymentView {
  deployment: DeploymentRow;
  environment: EnvironmentRow;
  user: UserRow | null;
  /** The job as the version's entity (v3 Build, v4 Job), null for an API deployment. */
  deployable: unknown;
  /** The job's row, for pages (its name and link). */
  build: CiBuildRow | null;
}

export function countEnvironmentList(deps: Deps, filter: EnvironmentFilter): Promise<number> {
  return countEnvironments(deps.db.kysely, filter);
}

export function listEnvironmentsPage(
  deps: Deps,
  filter: EnvironmentFilter,
  page: { limit: number; offset: number },
): Promise<EnvironmentRow[]> {
  return listEnvironments(deps.db.kysely, filter, page);
}

/** An environment of the project by its `:environment_id`, or 404 `404 Not found`. */
export async function loadEnvironmentOr404(
  deps: Deps,
  projectId: number,
  id: number,
): Promise<EnvironmentRow> {
  const environment = await findProjectEnvironment(deps.db.kysely, projectId, id);
  if (!environment) throw recordNotFound();
  return environment;
}

export async function loadDeploymentOr404(deps: Deps, projectId: number, id: number): Promise<DeploymentRow> {
  const deployment = await findProjectDeployment(deps.db.kysely, projectId, id);
  if (!deployment) throw recordNotFound();
  return deployment;
}

export function countDeploymentList(deps: Deps, filter: DeploymentFilter, cap: number): Promise<number> {
  return countDeploymentsUpTo(deps.db.kysely, filter, cap);
}

export function listDeploymentsPage(
  deps: Deps,
  filter: DeploymentFilter,
  order: { by: DeploymentOrder; sort: 'asc' | 'desc' },
  page: { limit: number; offset: number },
): Promise<DeploymentRow[]> {
  return listDeployments(deps.db.kysely, filter, order, page);
}

/** Deployments with their environments, users and jobs: three queries and the build views' reads. */
export async function deploymentViews(
  deps: Deps,
  record: ProjectRecord,
  deployments: DeploymentRow[],
  version: 'v3' | 'v4' | 'page',
): Promise<DeploymentView[]> {
  if (deployments.length === 0) return [];
  const db = deps.db.kysely;
  const ids = (key: 'user_id' | 'deployable_id') => [
    ...new Set(deployments.map((d) => d[key]).filter((id): id is number => id !== null)),
  ];
  const [environments, users, builds] = await Promise.all([
    environmentsByIds(db, [...new Set(deployments.map((d) => d.environment_id))]),
    usersByIds(db, ids('user_id')),
    deployableBuilds(db, ids('deployable_id')),
  ]);
  // Pages show only the job's name and link: no entity (nor its commits) for them.
  const shown =
    version === 'page'
      ? builds.map(() => null)
      : version === 'v3'
        ? await listBuildsOf(deps, record, builds)
        : await listJobsOf(deps, record, builds);
  const byId = new Map(builds.map((build, index) => [build.id, { build, shown: shown[index] }]));
  const environmentById = new Map(environments.map((environment) => [environment.id, environment]));
  return deployments.map((deployment) => {
    const job = deployment.deployable_id === null ? undefined : byId.get(deployment.deployable_id);
    return {
      deployment,
      environment: environmentById.get(deployment.environment_id)!,
      user: deployment.user_id === null ? null : (users.get(deployment.user_id) ?? null),
      deployable: job?.shown ?? null,
      build: job?.build ?? null,
    };
  });
}

/** The last successful deployment of each environment, as views (pages and v4's GET one). */
export async function lastDeploymentViews(
  deps: Deps,
  record: ProjectRecord,
  environments: EnvironmentRow[],
  version: 'v3' | 'v4' | 'page',
): Promise<Map<number, DeploymentView>> {
  const last = await lastDeployments(
    deps.db.kysely,
    environments.map((environment) => environment.id),
  );
  const views = await deploymentViews(deps, record, [...last.values()], version);
  return new Map(views.map((view) => [view.deployment.environment_id, view]));
}

/** Whether the environment can be stopped from its page (8.13's stoppable?: available with an on_stop job). */
export async function isStoppable(deps: Deps, environment: EnvironmentRow): Promise<boolean> {
  if (environment.state !== 'available') return false;
  return (await stopActionOf(deps.db.kysely, environment)) !== undefined;
}

/** The project's environment of this name, if it has one. */
export function findEnvironmentNamed(
  deps: Deps,
  projectId: number,
  name: string,
): Promise<EnvironmentRow | undefined> {
  return findEnvironmentByName(deps.db.kysely, projectId, name);
}
