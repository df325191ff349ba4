// v4's DeployKey entity (the administrators' list) and DeployKeysProject (a project's keys: the key and
// can_push). Labrador's deploy keys only read (8.13's), so can_push is false and no key expires.
import crypto from 'node:crypto';
import type { KeyRow } from '../../db/types.ts';

/** `SHA256:<unpadded base64>` of the key's blob, as ssh-keygen -l prints it. */
function fingerprintSha256(key: string): string | null {
  const blob = key.trim().split(/\s+/)[1];
  if (!blob) return null;
  const digest = crypto.createHash('sha256').update(Buffer.from(blob, 'base64')).digest('base64');
  return `SHA256:${digest.replace(/=+$/, '')}`;
}

export function presentDeployKey(key: KeyRow) {
  return {
    id: key.id,
    title: key.title,
    created_at: key.created_at,
    expires_at: null,
    key: key.key,
    fingerprint: key.fingerprint,
    fingerprint_sha256: fingerprintSha256(key.key),
  };
}

export function presentProjectDeployKey(key: KeyRow) {
  return { ...presentDeployKey(key), can_push: false };
}
