// SSH keys as the API shows them: the rows, and for GET /keys/:id (and v4's GET /keys?fingerprint=) the
// owner with its full-form extras.
// Lists are read whole (a user has a handful of keys); v3 shows them all, v4 pages them.
import type { Deps } from '../deps.ts';
import {
  findKeyById,
  findKeyBySha256Fingerprint,
  findKeyOfUser,
  keysOfUser,
} from '../db/repositories/keys.ts';
import { deployKeyLinks, findKeyByFingerprint } from '../db/repositories/deploy-keys.ts';
import { findUserById, userFullExtrasByIds } from '../db/repositories/users.ts';
import type { DeployKeyProjectRow, KeyRow } from '../db/types.ts';
import type { FullUserModel } from './user-views.ts';

export function userKeys(deps: Deps, userId: number): Promise<KeyRow[]> {
  return keysOfUser(deps.db.kysely, userId);
}

/** One key of the user; undefined when the user has no key with that id. */
export function userKey(deps: Deps, userId: number, keyId: number): Promise<KeyRow | undefined> {
  return findKeyOfUser(deps.db.kysely, userId, keyId);
}

/** Any key with its owner (null for a deploy key); undefined when there is no such key. */
export async function keyWithOwner(
  deps: Deps,
  keyId: number,
): Promise<{ key: KeyRow; owner: FullUserModel | null } | undefined> {
  const key = await findKeyById(deps.db.kysely, keyId);
  return key && withOwner(deps, key);
}

async function withOwner(
  deps: Deps,
  key: KeyRow,
): Promise<{ key: KeyRow; owner: FullUserModel | null } | undefined> {
  const db = deps.db.kysely;
  if (key.user_id === null) return { key, owner: null };
  const user = await findUserById(db, key.user_id);
  if (!user) return undefined;
  const extras = (await userFullExtrasByIds(db, [user.id])).get(user.id)!;
  return { key, owner: { user, extras } };
}

/**
 * The key, personal or deploy, with a fingerprint: MD5 (`aa:bb:…`, optionally `MD5:`-prefixed) through
 * the keys_fingerprint index, `SHA256:…` through keys_fingerprint_sha256, as GitLab's KeysFinder answers
 * GET /keys?fingerprint=. A deploy key comes with its project links.
 */
export async function keyByFingerprint(
  deps: Deps,
  fingerprint: string,
): Promise<{ key: KeyRow; owner: FullUserModel | null; links: DeployKeyProjectRow[] } | undefined> {
  const db = deps.db.kysely;
  let key: KeyRow | undefined;
  if (fingerprint.startsWith('SHA256:')) {
    key = await findKeyBySha256Fingerprint(db, fingerprint.slice('SHA256:'.length).replace(/=+$/, ''));
  } else {
    key = await findKeyByFingerprint(db, fingerprint.replace(/^MD5:/, '').toLowerCase());
  }
  const found = key && (await withOwner(deps, key));
  if (!found) return undefined;
  return { ...found, links: key!.user_id === null ? await deployKeyLinks(db, key!.id) : [] };
}
