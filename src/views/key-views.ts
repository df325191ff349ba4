// SSH keys as the API shows them. Lists are not paginated: GitLab presented the whole association.
import type { Deps } from '../deps.ts';
import { findKeyById, findKeyOfUser, keysOfUser } from '../db/repositories/keys.ts';
import { findUserById, userFullExtrasByIds } from '../db/repositories/users.ts';
import { presentSSHKey, presentSSHKeyWithUser } from '../presenters/api-v3/key.ts';

export async function userKeys(deps: Deps, userId: number) {
  return (await keysOfUser(deps.db.kysely, userId)).map(presentSSHKey);
}

/** One key of the user; undefined when the user has no key with that id. */
export async function userKey(deps: Deps, userId: number, keyId: number) {
  const key = await findKeyOfUser(deps.db.kysely, userId, keyId);
  return key && presentSSHKey(key);
}

/** Any user's key with its owner in the full form (GET /keys/:id, for administrators). */
export async function keyWithOwner(deps: Deps, keyId: number) {
  const db = deps.db.kysely;
  const key = await findKeyById(db, keyId);
  if (!key) return undefined;
  // A deploy key has no owner: GitLab presented `"user": null`.
  if (key.user_id === null) return { ...presentSSHKey(key), user: null };
  const user = await findUserById(db, key.user_id);
  if (!user) return undefined;
  const extras = (await userFullExtrasByIds(db, [user.id])).get(user.id)!;
  return presentSSHKeyWithUser(key, user, deps.config.externalUrl, extras);
}
