// Whose key an SSH client presents: found by its MD5 fingerprint through the keys_fingerprint unique
// index (never by reading every key), then compared whole, so the fingerprint is only the way in.
import sshpk from 'sshpk';
import type { Deps } from '../../deps.ts';
import { findKeyByFingerprint } from '../../db/repositories/deploy-keys.ts';
import { findUserById } from '../../db/repositories/users.ts';
import type { GitActor } from '../push/git-access.ts';
import type { KeyRow } from '../../db/types.ts';

export interface SshKeyOwner {
  key: KeyRow;
  actor: GitActor;
  /** What the welcome line calls the caller: the user's name, or "Anonymous" for a deploy key. */
  displayName: string;
}

/** The stored key and its owner for a public key in SSH wire form, or undefined when it is unknown. */
export async function findSshKeyOwner(deps: Deps, publicKey: Buffer): Promise<SshKeyOwner | undefined> {
  let fingerprint: string;
  try {
    fingerprint = sshpk.parseKey(publicKey, 'rfc4253').fingerprint('md5').toString('hex');
  } catch {
    return undefined;
  }
  const db = deps.db.kysely;
  const key = await findKeyByFingerprint(db, fingerprint);
  if (!key) return undefined;
  if (key.user_id === null) return { key, actor: { user: null, deployKey: key }, displayName: 'Anonymous' };
  const user = await findUserById(db, key.user_id);
  if (!user) return undefined;
  return { key, actor: { user }, displayName: user.name };
}
