// Deploy keys of a project (GitLab 8.13's lib/api/deploy_keys.rb). Adding a key that is already a
// deploy key somewhere the caller can reach enables that same key here (one row, several projects);
// any other key is created as a new deploy key, validated as personal keys are, so a personal key's
// fingerprint answers `fingerprint has already been taken`. Removing a key from a project removes
// only its link; a private key left on no project is deleted (GitLab's destroy_orphaned_deploy_key).
// Each operation is one transaction with its system hook deliveries.
import type { Deps } from '../../deps.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { now } from '../../lib/clock.ts';
import { insertKey } from '../../db/repositories/keys.ts';
import {
  DEPLOY_KEY,
  deleteDeployKey,
  findDeployKeyById,
  findDeployKeyOfProject,
  findKeyByFingerprint,
  hasDeployKeyLinks,
  linkDeployKey,
  projectIdsOfDeployKey,
  unlinkDeployKey,
  updateDeployKeyTitle,
} from '../../db/repositories/deploy-keys.ts';
import { findProjectRecordsByIds } from '../../db/repositories/projects.ts';
import { projectAccessMany } from '../../policies/access.ts';
import { canEnableDeployKey } from '../../policies/deploy-keys.ts';
import { notFound, validationFailed } from '../../errors.ts';
import { announceUserKey } from '../hooks/system-hook-announcements.ts';
import { keyFingerprint, validateKey, type NewKey } from '../users/keys.ts';
import type { Executor, KeyRow, UserRow } from '../../db/types.ts';

/** Whether the user may enable this deploy key (public, or enabled on one of the user's projects). */
async function mayEnable(trx: Executor, user: UserRow, key: KeyRow): Promise<boolean> {
  if (key.public === 1) return true;
  const records = await findProjectRecordsByIds(trx, await projectIdsOfDeployKey(trx, key.id));
  const accesses = await projectAccessMany(trx, user, records);
  return canEnableDeployKey(key, [...accesses.values()]);
}

/** POST /projects/:id/keys: the key enabled on the project (an existing deploy key, or a new one). */
export async function addDeployKey(
  deps: Deps,
  user: UserRow,
  projectId: number,
  input: Partial<NewKey>,
): Promise<KeyRow> {
  try {
    return await addDeployKeyOnce(deps, user, projectId, input);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  // Someone added the same key at the same moment: now it exists, and is enabled here if reachable.
  try {
    return await addDeployKeyOnce(deps, user, projectId, input);
  } catch (error) {
    if (isUniqueViolation(error)) throw validationFailed({ fingerprint: ['has already been taken'] });
    throw error;
  }
}

function addDeployKeyOnce(deps: Deps, user: UserRow, projectId: number, input: Partial<NewKey>) {
  const text = (input.key ?? '').trim();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const at = now();
    // The same key (by fingerprint: another comment is still the same key) already a deploy key.
    const fingerprint = text === '' || text.length > 5000 ? undefined : keyFingerprint(text);
    const existing = fingerprint ? await findKeyByFingerprint(trx, fingerprint) : undefined;
    if (existing?.type === DEPLOY_KEY && (await mayEnable(trx, user, existing))) {
      await linkDeployKey(trx, existing.id, projectId, at);
      return existing;
    }
    const {
      errors,
      key,
      fingerprint: checked,
    } = await validateKey(trx, {
      title: input.title ?? '',
      key: input.key ?? '',
    });
    errors.throwIfAny();
    const row = await insertKey(trx, {
      user_id: null,
      type: DEPLOY_KEY,
      title: input.title ?? '',
      key,
      fingerprint: checked,
      created_at: at,
      updated_at: at,
    });
    await linkDeployKey(trx, row.id, projectId, at);
    await announceUserKey(trx, 'create', row);
    return row;
  });
}

/** POST …/deploy_keys/:key_id/enable: a deploy key the user may reach, enabled here too. */
export function enableDeployKey(
  deps: Deps,
  user: UserRow,
  projectId: number,
  keyId: number,
): Promise<KeyRow> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const key = await findDeployKeyById(trx, keyId);
    if (!key || !(await mayEnable(trx, user, key))) throw notFound('Deploy Key');
    await linkDeployKey(trx, key.id, projectId, now());
    return key;
  });
}

/**
 * DELETE …/deploy_keys/:key_id(/disable): the key is no longer enabled on the project; undefined when it
 * was not. The key itself goes when no project is left and it is not public.
 */
export function disableDeployKey(deps: Deps, projectId: number, keyId: number): Promise<KeyRow | undefined> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const key = await findDeployKeyOfProject(trx, projectId, keyId);
    if (!key || !(await unlinkDeployKey(trx, key.id, projectId))) return undefined;
    if (key.public !== 1 && !(await hasDeployKeyLinks(trx, key.id))) {
      await deleteDeployKey(trx, key.id);
      await announceUserKey(trx, 'destroy', key);
    }
    return key;
  });
}

/** v4's PUT …/deploy_keys/:key_id: retitles a key enabled on the project; undefined when it is not. */
export async function retitleDeployKey(
  deps: Deps,
  projectId: number,
  keyId: number,
  title: string | undefined,
): Promise<KeyRow | undefined> {
  const db = deps.db.kysely;
  const key = await findDeployKeyOfProject(db, projectId, keyId);
  if (!key || title === undefined) return key;
  if (title.trim() === '') throw validationFailed({ title: ["can't be blank"] });
  await updateDeployKeyTitle(db, keyId, title, now());
  return findDeployKeyOfProject(db, projectId, keyId);
}
