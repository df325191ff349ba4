// The one maker of secrets handed to clients, in GitLab's shapes: Devise's friendly_token (private,
// build, registration and project runner tokens, generated passwords: 20 URL-safe characters) and
// SecureRandom.hex (runner and trigger tokens: 30 hex characters; upload secrets: 32).
import crypto from 'node:crypto';

export function friendlyToken(): string {
  return crypto.randomBytes(15).toString('base64url');
}

/** `bytes` random bytes as hex (twice as many characters). */
export function hexToken(bytes = 15): string {
  return crypto.randomBytes(bytes).toString('hex');
}
