// The secrets CI hands out, shaped as GitLab's were: build tokens are Devise friendly tokens (20 URL-safe
// characters), runner and trigger tokens 30 hex characters.
import crypto from 'node:crypto';

export function friendlyToken(): string {
  return crypto.randomBytes(15).toString('base64url');
}

export function hexToken(): string {
  return crypto.randomBytes(15).toString('hex');
}
