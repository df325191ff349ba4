// What a personal access token may do, by its scopes (GitLab's Gitlab::Auth scopes and the
// allow_access_with_scope declarations of its API): `api` everything; `read_api` reads (GET, HEAD) of
// every route; `read_user` reads of the user and users routes; `read_repository` and `write_repository`
// only git (clone; clone and push); `sudo` lets an administrator's token act as another user. A token
// stops working on its expiry day (expires_at <= today) or once revoked.
import type { PersonalAccessTokenRow } from '../db/types.ts';

const TOKEN_SCOPES = ['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'sudo'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export function isTokenScope(scope: string): scope is TokenScope {
  return (TOKEN_SCOPES as readonly string[]).includes(scope);
}

export function tokenScopes(token: Pick<PersonalAccessTokenRow, 'scopes'>): string[] {
  return token.scopes === '' ? [] : token.scopes.split(' ');
}

function isTokenExpired(token: Pick<PersonalAccessTokenRow, 'expires_at'>, today: string): boolean {
  return token.expires_at !== null && token.expires_at <= today;
}

export function isTokenActive(
  token: Pick<PersonalAccessTokenRow, 'expires_at' | 'revoked'>,
  today: string,
): boolean {
  return !token.revoked && !isTokenExpired(token, today);
}

/** GitLab's users module (read_user): /user, /user/…, /users, /users/… but not what other modules serve. */
const USER_ROUTE = /^\/api\/v\d+\/users?(?:\/|$)/;
const NOT_USER_ROUTE =
  /^\/api\/v\d+\/users\/[^/]+\/(?:projects|starred_projects|events|contribution_events)(?:\/|$)/;

/**
 * The scopes that may call a route, in the order GitLab names them in its refusal (the route's module
 * first, then the whole API's): every scope registered for it, whichever of them a method allows.
 */
export function routeScopes(path: string): TokenScope[] {
  return USER_ROUTE.test(path) && !NOT_USER_ROUTE.test(path)
    ? ['read_user', 'api', 'read_api']
    : ['api', 'read_api'];
}

/** Whether a token with `scopes` may call `method path` (path as the route declares it). */
export function scopesAllowRoute(scopes: readonly string[], method: string, path: string): boolean {
  if (scopes.includes('api')) return true;
  const reads = method === 'GET' || method === 'HEAD';
  if (!reads) return false;
  if (scopes.includes('read_api')) return true;
  return scopes.includes('read_user') && routeScopes(path)[0] === 'read_user';
}

/** What a token may do over git (GitLab's abilities_for_scopes: download_code, push_code). */
export function gitAbilities(scopes: readonly string[]): { download: boolean; push: boolean } {
  const push = scopes.includes('api') || scopes.includes('write_repository');
  return { download: push || scopes.includes('read_api') || scopes.includes('read_repository'), push };
}
