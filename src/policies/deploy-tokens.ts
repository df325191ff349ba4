// What a deploy token may do (GitLab's DeployToken): its scopes are GitLab's AVAILABLE_SCOPES; over git
// only read_repository means something here (clone and fetch of its project, or of any project of its
// group; never a push). A token works until revoked or past its expiry moment. Over HTTP its username
// must be given with it, as GitLab's deploy_token_check asks.
import type { DeployTokenRow, ProjectRow } from '../db/types.ts';

export const DEPLOY_TOKEN_SCOPES = [
  'read_repository',
  'read_registry',
  'write_registry',
  'read_package_registry',
  'write_package_registry',
  'read_virtual_registry',
  'write_virtual_registry',
] as const;

export function isDeployTokenScope(scope: string): boolean {
  return (DEPLOY_TOKEN_SCOPES as readonly string[]).includes(scope);
}

export function deployTokenScopes(token: Pick<DeployTokenRow, 'scopes'>): string[] {
  return token.scopes === '' ? [] : token.scopes.split(' ');
}

/** The name a token signs in with: its own, or GitLab's default `gitlab+deploy-token-<id>`. */
export function deployTokenUsername(token: Pick<DeployTokenRow, 'id' | 'username'>): string {
  return token.username ?? `gitlab+deploy-token-${token.id}`;
}

export function isDeployTokenExpired(token: Pick<DeployTokenRow, 'expires_at'>, now: string): boolean {
  return token.expires_at !== null && token.expires_at < now;
}

export function isDeployTokenActive(
  token: Pick<DeployTokenRow, 'expires_at' | 'revoked'>,
  now: string,
): boolean {
  return !token.revoked && !isDeployTokenExpired(token, now);
}

/** Whether the token may clone `project`: its own project, or one in its group. */
export function canDeployTokenDownload(
  token: Pick<DeployTokenRow, 'project_id' | 'group_id' | 'scopes'>,
  project: Pick<ProjectRow, 'id' | 'namespace_id'>,
): boolean {
  const holds =
    token.project_id === project.id || (token.group_id !== null && token.group_id === project.namespace_id);
  return holds && deployTokenScopes(token).includes('read_repository');
}
