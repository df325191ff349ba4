// Deploy tokens of projects and groups: made (the secret, `gldt-` and 20 random URL-safe characters as
// GitLab 16+, is returned once; only its SHA-256 is kept), removed, and found for a git client's
// credentials.
import type { Deps } from '../../deps.ts';
import {
  deleteDeployToken,
  findDeployTokenByDigest,
  insertDeployToken,
  type DeployTokenHolder,
} from '../../db/repositories/deploy-tokens.ts';
import type { DeployTokenRow } from '../../db/types.ts';
import { ValidationErrors } from '../../errors.ts';
import { now } from '../../lib/clock.ts';
import { friendlyToken } from '../../lib/tokens.ts';
import {
  DEPLOY_TOKEN_SCOPES,
  deployTokenUsername,
  isDeployTokenActive,
} from '../../policies/deploy-tokens.ts';
import { tokenDigest } from '../users/personal-access-tokens.ts';

export const DEPLOY_TOKEN_PREFIX = 'gldt-';
const USERNAME = /^[a-zA-Z0-9.+_-]+$/;

export interface NewDeployToken {
  name: string;
  /** Known scopes only (the route refuses others). */
  scopes: string[];
  /** An ISO timestamp, or null: never expires. */
  expiresAt: string | null;
  username: string | null;
}

export async function createDeployToken(
  deps: Deps,
  holder: Exclude<DeployTokenHolder, 'all'>,
  creatorId: number,
  input: NewDeployToken,
): Promise<{ row: DeployTokenRow; token: string }> {
  const errors = new ValidationErrors();
  if (input.name.length > 255) errors.add('name', 'is too long (maximum is 255 characters)');
  if (input.username !== null) {
    if (input.username.length > 255) errors.add('username', 'is too long (maximum is 255 characters)');
    else if (!USERNAME.test(input.username)) {
      errors.add('username', "can contain only letters, digits, '_', '-', '+', and '.'");
    }
  }
  if (input.scopes.length === 0) errors.add('base', "Scopes can't be blank");
  errors.throwIfAny();
  const token = DEPLOY_TOKEN_PREFIX + friendlyToken();
  const scopes = DEPLOY_TOKEN_SCOPES.filter((scope) => input.scopes.includes(scope));
  const row = await insertDeployToken(deps.db.kysely, {
    project_id: 'projectId' in holder ? holder.projectId : null,
    group_id: 'groupId' in holder ? holder.groupId : null,
    creator_id: creatorId,
    name: input.name,
    username: input.username,
    token_digest: tokenDigest(token),
    scopes: scopes.join(' '),
    expires_at: input.expiresAt,
    created_at: now(),
  });
  return { row, token };
}

export function destroyDeployToken(deps: Deps, holder: DeployTokenHolder, id: number): Promise<boolean> {
  return deleteDeployToken(deps.db.kysely, holder, id);
}

/**
 * The active token a git client's `username:secret` names, in one indexed read; undefined when the
 * secret is no token's, the token is revoked or expired, or the username is not the token's.
 */
export async function findDeployTokenForLogin(
  deps: Deps,
  login: string,
  secret: string,
): Promise<DeployTokenRow | undefined> {
  const token = await findDeployTokenByDigest(deps.db.kysely, tokenDigest(secret));
  if (!token || !isDeployTokenActive(token, now())) return undefined;
  return deployTokenUsername(token) === login ? token : undefined;
}
