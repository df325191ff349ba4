// SSH keys as the API shows them: the rows, and for GET /keys/:id the owner with its full-form extras.
// Lists are read whole (a user has a handful of keys); v3 shows them all, v4 pages them.
import type { Deps } from '../deps.ts';
import { findKeyById, findKeyOfUser, keysOfUser } from '../db/repositories/keys.ts';
import { findUserById, userFullExtrasByIds } from '../db/repositories/users.ts';
import type { KeyRow } from '../db/types.ts';
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
  const db = deps.db.kysely;
  const key = await findKeyById(db, keyId);
  if (!key) return undefined;
  if (key.user_id === null) return { key, owner: null };
  const user = await findUserById(db, key.user_id);
  if (!user) return undefined;
  const extras = (await userFullExtrasByIds(db, [user.id])).get(user.id)!;
  return { key, owner: { user, extras } };
}
