// API v4's SSHKey entity. Labrador's keys never expire and serve both authentication and signing.
import type { KeyRow } from '../../db/types.ts';

export function presentSSHKey(key: KeyRow) {
  return {
    id: key.id,
    title: key.title,
    created_at: key.created_at,
    expires_at: null,
    key: key.key,
    usage_type: 'auth_and_signing',
  };
}
