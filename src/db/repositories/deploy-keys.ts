// Deploy keys: rows of keys with type 'DeployKey', linked to projects through deploy_keys_projects
// (unique (project_id, deploy_key_id); (deploy_key_id, project_id) for a key's projects).
import type { DeployKeyProjectRow, Executor, KeyRow } from '../types.ts';

export const DEPLOY_KEY = 'DeployKey';

/** A project's deploy keys, in the order they were added to it. */
export function deployKeysOfProject(db: Executor, projectId: number): Promise<KeyRow[]> {
  return db
    .selectFrom('deploy_keys_projects as dkp')
    .innerJoin('keys', 'keys.id', 'dkp.deploy_key_id')
    .selectAll('keys')
    .where('dkp.project_id', '=', projectId)
    .orderBy('dkp.id')
    .execute();
}

export function findDeployKeyOfProject(
  db: Executor,
  projectId: number,
  keyId: number,
): Promise<KeyRow | undefined> {
  return db
    .selectFrom('deploy_keys_projects as dkp')
    .innerJoin('keys', 'keys.id', 'dkp.deploy_key_id')
    .selectAll('keys')
    .where('dkp.project_id', '=', projectId)
    .where('dkp.deploy_key_id', '=', keyId)
    .executeTakeFirst();
}

export function findDeployKeyById(db: Executor, id: number): Promise<KeyRow | undefined> {
  return db
    .selectFrom('keys')
    .selectAll()
    .where('id', '=', id)
    .where('type', '=', DEPLOY_KEY)
    .executeTakeFirst();
}

/** Any key, personal or deploy, by its MD5 fingerprint (the keys_fingerprint unique index). */
export function findKeyByFingerprint(db: Executor, fingerprint: string): Promise<KeyRow | undefined> {
  return db.selectFrom('keys').selectAll().where('fingerprint', '=', fingerprint).executeTakeFirst();
}

/** Every deploy key (GET /deploy_keys, administrators), through the keys_deploy partial index. */
export function allDeployKeys(db: Executor): Promise<KeyRow[]> {
  return db.selectFrom('keys').selectAll().where('type', '=', DEPLOY_KEY).orderBy('id').execute();
}

/** Ids of the projects a deploy key is enabled on. */
export async function projectIdsOfDeployKey(db: Executor, keyId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('deploy_keys_projects')
    .select('project_id')
    .where('deploy_key_id', '=', keyId)
    .orderBy('project_id')
    .execute();
  return rows.map((row) => row.project_id);
}

export async function isDeployKeyEnabled(db: Executor, keyId: number, projectId: number): Promise<boolean> {
  const row = await db
    .selectFrom('deploy_keys_projects')
    .select('id')
    .where('project_id', '=', projectId)
    .where('deploy_key_id', '=', keyId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Enables the key on the project; enabling it twice leaves one link. */
export async function linkDeployKey(
  db: Executor,
  keyId: number,
  projectId: number,
  at: string,
): Promise<void> {
  await db
    .insertInto('deploy_keys_projects')
    .values({ deploy_key_id: keyId, project_id: projectId, created_at: at, updated_at: at })
    .onConflict((conflict) => conflict.columns(['project_id', 'deploy_key_id']).doNothing())
    .execute();
}

/** Removes the link; whether there was one. */
export async function unlinkDeployKey(db: Executor, keyId: number, projectId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('deploy_keys_projects')
    .where('project_id', '=', projectId)
    .where('deploy_key_id', '=', keyId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function hasDeployKeyLinks(db: Executor, keyId: number): Promise<boolean> {
  const row = await db
    .selectFrom('deploy_keys_projects')
    .select('id')
    .where('deploy_key_id', '=', keyId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteDeployKey(db: Executor, keyId: number): Promise<void> {
  await db.deleteFrom('keys').where('id', '=', keyId).where('type', '=', DEPLOY_KEY).execute();
}

/** A deploy key's new title (GitLab's PUT …/deploy_keys/:key_id). */
export async function updateDeployKeyTitle(
  db: Executor,
  keyId: number,
  title: string,
  at: string,
): Promise<void> {
  await db.updateTable('keys').set({ title, updated_at: at }).where('id', '=', keyId).execute();
}

/** A deploy key's links to projects, oldest first. */
export function deployKeyLinks(db: Executor, keyId: number): Promise<DeployKeyProjectRow[]> {
  return db
    .selectFrom('deploy_keys_projects')
    .selectAll()
    .where('deploy_key_id', '=', keyId)
    .orderBy('id')
    .execute();
}
