// The SHA-256 fingerprint of a one-line public key, as `ssh-keygen -l` prints it after `SHA256:`: the
// unpadded base64 of the key blob's digest. Stored beside the MD5 one so GET /keys?fingerprint=SHA256:…
// is an index lookup (keys_fingerprint_sha256), not a walk of every key.
import crypto from 'node:crypto';

export function sha256Fingerprint(keyText: string): string | null {
  const blob = keyText.trim().split(/\s+/)[1];
  if (!blob) return null;
  return crypto.createHash('sha256').update(Buffer.from(blob, 'base64')).digest('base64').replace(/=+$/, '');
}
