// Who is calling: a token from the `private_token` parameter (it wins), the PRIVATE-TOKEN header or
// `Authorization: Bearer`: the user's private token (v3's, every scope) or one of their personal access
// tokens (by the SHA-256 of the secret; refused once revoked or on its expiry day, and held to its
// scopes on every route); blocked users count as nobody; administrators may act as another user with
// `sudo` / SUDO (hardened as GitLab 8.13.10 did: only administrators, and an unknown user is a 404, never
// ignored; a personal access token needs the `sudo` scope for it).
// This runs before every request, so it costs one indexed lookup (two with sudo) and writes only once
// (a personal access token: once a minute, for last_used_at).
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { findUserById, findUserByToken, findUserByUsername, recordSignIn } from '../db/repositories/users.ts';
import { findTokenWithUserByDigest } from '../db/repositories/personal-access-tokens.ts';
import { now, today } from '../lib/clock.ts';
import { ApiError, forbidden, notFound, unauthorized } from '../errors.ts';
import { isAdministrator, canSignIn } from '../policies/users.ts';
import { isTokenActive, routeScopes, scopesAllowRoute, tokenScopes } from '../policies/access-tokens.ts';
import {
  noteAccessTokenUse,
  PERSONAL_ACCESS_TOKEN_PREFIX,
  tokenDigest,
} from '../services/users/personal-access-tokens.ts';
import { optionalString, pathId, requestParams } from './params.ts';
import type { PersonalAccessTokenRow, UserRow } from '../db/types.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in, non-blocked caller (after sudo), or null. */
    viewer: UserRow | null;
    /** True when an administrator is acting through sudo. */
    sudo: boolean;
  }
  interface FastifyContextConfig {
    /** The route answers without a signed-in caller (POST /session, git and runner routes). */
    public?: boolean;
    /** Any token scope may reach the route (the JSON 404 of unknown paths, which uses no caller). */
    anyTokenScope?: boolean;
  }
}

/** The personal access token a request authenticated with (none for the private token). */
const accessTokens = new WeakMap<FastifyRequest, PersonalAccessTokenRow>();

export function requestAccessToken(request: FastifyRequest): PersonalAccessTokenRow | undefined {
  return accessTokens.get(request);
}

/** GitLab's refusal of a token whose scopes do not reach the route (Rack::OAuth2's Bearer::Forbidden). */
const insufficientScope = (scopes: readonly string[]) =>
  new ApiError(403, {
    error: 'insufficient_scope',
    error_description: 'The request requires higher privileges than provided by the access token.',
    scope: scopes.join(' '),
  });

function presentedToken(request: FastifyRequest, params: Record<string, unknown>): string | undefined {
  const header = request.headers['private-token'];
  const fromHeader = typeof header === 'string' && header !== '' ? header : undefined;
  const token = optionalString(params, 'private_token') || fromHeader;
  if (token) return token;
  const authorization = request.headers.authorization;
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return bearer?.[1];
}

interface Caller {
  user: UserRow;
  accessToken?: PersonalAccessTokenRow;
}

/**
 * The caller a token names: a personal access token (by its prefix) in one read of its digest joined to
 * its user, otherwise a private token; a revoked or expired token names nobody.
 */
async function callerByToken(deps: Deps, token: string): Promise<Caller | undefined> {
  if (token.startsWith(PERSONAL_ACCESS_TOKEN_PREFIX)) {
    const found = await findTokenWithUserByDigest(deps.db.kysely, tokenDigest(token));
    if (found)
      return isTokenActive(found.token, today()) ? { user: found.user, accessToken: found.token } : undefined;
  }
  const user = await findUserByToken(deps.db.kysely, token);
  return user && { user };
}

export async function resolveViewer(deps: Deps, request: FastifyRequest): Promise<void> {
  request.viewer = null;
  request.sudo = false;
  const params = requestParams(request);
  const token = presentedToken(request, params);
  let accessToken: PersonalAccessTokenRow | undefined;
  if (token) {
    const caller = await callerByToken(deps, token);
    if (caller && canSignIn(caller.user)) {
      accessToken = caller.accessToken;
      if (accessToken) {
        const path = request.routeOptions.url ?? request.url;
        const config = request.routeOptions.config;
        if (!config?.anyTokenScope && !scopesAllowRoute(tokenScopes(accessToken), request.method, path)) {
          throw insufficientScope(routeScopes(path));
        }
        accessTokens.set(request, accessToken);
        await noteAccessTokenUse(deps, accessToken);
      }
      const user = caller.user;
      // A stamp only when the user never signed in: not a write on every request.
      request.viewer = user.current_sign_in_at ? user : await recordSignIn(deps.db.kysely, user, now());
    }
  }
  if (!request.viewer) {
    if (request.routeOptions.config?.public) return;
    throw unauthorized();
  }

  const sudoHeader = request.headers['sudo'];
  const sudo = optionalString(params, 'sudo') ?? (typeof sudoHeader === 'string' ? sudoHeader : undefined);
  if (sudo === undefined || sudo === '') return;
  if (!isAdministrator(request.viewer)) throw forbidden('Must be admin to use sudo');
  if (accessToken && !tokenScopes(accessToken).includes('sudo')) throw insufficientScope(['sudo']);
  const target = await findSudoTarget(deps, sudo);
  if (!target) throw notFound(`No user id or username for: ${sudo}`);
  request.viewer = target;
  request.sudo = true;
}

/** Digits name a user id (nobody beyond 32 bits), anything else a username. */
function findSudoTarget(deps: Deps, sudo: string): Promise<UserRow | undefined> {
  if (!/^\d+$/.test(sudo)) return findUserByUsername(deps.db.kysely, sudo);
  const id = pathId(sudo);
  return id === undefined ? Promise.resolve(undefined) : findUserById(deps.db.kysely, id);
}

/** The caller, for routes that declared themselves public but need a caller for this branch. */
export function requireViewer(request: FastifyRequest): UserRow {
  if (!request.viewer) throw unauthorized();
  return request.viewer;
}

export function requireAdmin(request: FastifyRequest): UserRow {
  const viewer = requireViewer(request);
  if (!isAdministrator(viewer)) throw forbidden();
  return viewer;
}
