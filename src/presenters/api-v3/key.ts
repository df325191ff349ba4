// SSH key shapes: the SSHKey entity, and the raw record GitLab's DELETE endpoints serialized
// (`key.destroy` returned the ActiveRecord row, columns in table order).
import { presentUserFull } from './user.ts';
import type { KeyRow, UserFullExtras, UserRow } from '../../db/types.ts';

export function presentSSHKey(key: KeyRow) {
  return { id: key.id, title: key.title, key: key.key, created_at: key.created_at };
}

/** SSHKeyWithUser: the key and its owner in the administrator form. */
export function presentSSHKeyWithUser(key: KeyRow, user: UserRow, baseUrl: string, extras: UserFullExtras) {
  return Object.assign(presentSSHKey(key), { user: presentUserFull(user, baseUrl, extras) });
}

/** The destroyed row as GitLab's `to_json` printed it (`type` is "DeployKey" for deploy keys). */
export function presentKeyRecord(key: KeyRow) {
  return {
    id: key.id,
    user_id: key.user_id,
    created_at: key.created_at,
    updated_at: key.updated_at,
    key: key.key,
    title: key.title,
    type: key.type,
    fingerprint: key.fingerprint,
    public: key.public === 1,
  };
}
