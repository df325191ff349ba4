// Environments and their deployments. An environment is found by (project_id, name) or by id; a
// deployment list walks one of the project's (project_id, <order>, id) indexes, or an environment's
// (environment_id[, status], id), takes the page's ids first (the offset applied to the index) and then
// reads those rows; its count stops at a cap. The newest successful deployment of each environment on a
// page is one correlated step down (environment_id, status, id) per environment.
import { sql } from 'kysely';
import type {
  CiBuildRow,
  DeploymentRow,
  EnvironmentChanges,
  EnvironmentRow,
  Executor,
  NewDeployment,
  NewEnvironment,
} from '../types.ts';

export function findEnvironmentByName(
  db: Executor,
  projectId: number,
  name: string,
): Promise<EnvironmentRow | undefined> {
  return db
    .selectFrom('environments')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export function findProjectEnvironment(
  db: Executor,
  projectId: number,
  id: number,
): Promise<EnvironmentRow | undefined> {
  return db
    .selectFrom('environments')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

/** Inserts the environment unless the project has one of that name; answers undefined then. */
export function insertEnvironment(db: Executor, row: NewEnvironment): Promise<EnvironmentRow | undefined> {
  return db
    .insertInto('environments')
    .values(row)
    .onConflict((oc) => oc.columns(['project_id', 'name']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function updateEnvironment(
  db: Executor,
  id: number,
  changes: EnvironmentChanges,
): Promise<EnvironmentRow | undefined> {
  return db.updateTable('environments').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteEnvironment(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('environments').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Another environment of the project already has this external URL (8.13 kept them unique). */
export async function externalUrlTaken(
  db: Executor,
  projectId: number,
  url: string,
  exceptId: number | null,
): Promise<boolean> {
  let query = db
    .selectFrom('environments')
    .select('id')
    .where('project_id', '=', projectId)
    .where('external_url', '=', url);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

export interface EnvironmentFilter {
  projectId: number;
  name?: string;
  /** Names starting with this (case-insensitive). */
  search?: string;
  states?: string[];
}

function environmentList(db: Executor, filter: EnvironmentFilter) {
  let query = db.selectFrom('environments').where('project_id', '=', filter.projectId);
  if (filter.name !== undefined) query = query.where('name', '=', filter.name);
  if (filter.search !== undefined) {
    const pattern = `${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
  }
  if (filter.states && filter.states.length > 0) query = query.where('state', 'in', filter.states);
  return query;
}

export async function countEnvironments(db: Executor, filter: EnvironmentFilter): Promise<number> {
  const row = await environmentList(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listEnvironments(
  db: Executor,
  filter: EnvironmentFilter,
  page: { limit: number; offset: number },
): Promise<EnvironmentRow[]> {
  return environmentList(db, filter)
    .selectAll()
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The newest successful deployment of each environment (by id), for those that have one. */
export async function lastDeployments(
  db: Executor,
  environmentIds: number[],
): Promise<Map<number, DeploymentRow>> {
  if (environmentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('deployments')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('environments as e')
        .select((inner) =>
          inner
            .selectFrom('deployments as d')
            .select('d.id')
            .whereRef('d.environment_id', '=', 'e.id')
            .where('d.status', '=', 'success')
            .orderBy('d.id', 'desc')
            .limit(1)
            .as('last_id'),
        )
        .where('e.id', 'in', environmentIds),
    )
    .execute();
  return new Map(rows.map((row) => [row.environment_id, row]));
}

export function environmentsByIds(db: Executor, ids: number[]): Promise<EnvironmentRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('environments').selectAll().where('id', 'in', ids).execute();
}

export function insertDeployment(db: Executor, row: NewDeployment): Promise<DeploymentRow> {
  return db.insertInto('deployments').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findProjectDeployment(
  db: Executor,
  projectId: number,
  id: number,
): Promise<DeploymentRow | undefined> {
  return db
    .selectFrom('deployments')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

export type DeploymentOrder = 'id' | 'iid' | 'created_at' | 'updated_at' | 'ref';

export interface DeploymentFilter {
  projectId: number;
  /** An environment of the project (never one of another project). */
  environmentId?: number;
  status?: string;
}

function deploymentList(db: Executor, filter: DeploymentFilter) {
  // An environment is the project's (the caller found it there): its deployments are then walked on
  // (environment_id[, status], id) alone, an index that answers the count without reading rows.
  let query =
    filter.environmentId === undefined
      ? db.selectFrom('deployments').where('project_id', '=', filter.projectId)
      : db.selectFrom('deployments').where('environment_id', '=', filter.environmentId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  return query;
}

/** How many deployments the list has, counting no further than `cap` (a bounded walk of an index). */
export async function countDeploymentsUpTo(
  db: Executor,
  filter: DeploymentFilter,
  cap: number,
): Promise<number> {
  const capped = deploymentList(db, filter)
    .select(sql<number>`1`.as('one'))
    .limit(cap);
  const row = await db
    .selectFrom(capped.as('capped'))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listDeployments(
  db: Executor,
  filter: DeploymentFilter,
  order: { by: DeploymentOrder; sort: 'asc' | 'desc' },
  page: { limit: number; offset: number },
): Promise<DeploymentRow[]> {
  const ids = deploymentList(db, filter)
    .select('id')
    .orderBy(order.by, order.sort)
    .orderBy('id', order.sort)
    .limit(page.limit)
    .offset(page.offset);
  return db
    .selectFrom('deployments')
    .selectAll()
    .where('id', 'in', ids)
    .orderBy(order.by, order.sort)
    .orderBy('id', order.sort)
    .execute();
}

/** The jobs that made these deployments (one query for a page). */
export function deployableBuilds(db: Executor, ids: number[]): Promise<CiBuildRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('ci_builds').selectAll().where('id', 'in', ids).execute();
}

export function updateDeploymentStatus(
  db: Executor,
  id: number,
  status: string,
  at: string,
): Promise<DeploymentRow | undefined> {
  return db
    .updateTable('deployments')
    .set({ status, updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
