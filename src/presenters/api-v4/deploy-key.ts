// v4's DeployKey entity (the administrators' list) and DeployKeysProject (a project's keys: the key and
// can_push). Labrador's deploy keys only read (8.13's), so can_push is false and no key expires.
import type { KeyRow } from '../../db/types.ts';

export function presentDeployKey(key: KeyRow) {
  return {
    id: key.id,
    title: key.title,
    created_at: key.created_at,
    expires_at: null,
    key: key.key,
    fingerprint: key.fingerprint,
    // As ssh-keygen -l prints it.
    fingerprint_sha256: key.fingerprint_sha256 === null ? null : `SHA256:${key.fingerprint_sha256}`,
  };
}

export function presentProjectDeployKey(key: KeyRow) {
  return { ...presentDeployKey(key), can_push: false };
}
