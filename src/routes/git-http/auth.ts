// HTTP basic authentication for git clients: username (or email) with the
// account password or the private token (GitLab took only personal access tokens there; the brief of
// the issue takes the private token), or a personal access token as the password under any username
// (as GitLab: the token names its user; its scopes decide clone and push). Wrong credentials → 401 with
// a Basic challenge.
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { verifyPassword } from '../../services/users/passwords.ts';
import { buildByGitToken } from '../../services/ci/builds.ts';
import { findUserByLogin } from '../../services/users/session.ts';
import { assertNotBanned, recordSignInFailure, SignInBanned } from '../../services/users/sign-in-limiter.ts';
import { canSignIn } from '../../policies/users.ts';
import { tokenScopes } from '../../policies/access-tokens.ts';
import {
  findActiveAccessToken,
  noteAccessTokenUse,
  PERSONAL_ACCESS_TOKEN_PREFIX,
} from '../../services/users/personal-access-tokens.ts';
import type { GitActor } from '../../services/push/git-access.ts';
import type { CiBuildRow, DeployTokenRow, UserRow } from '../../db/types.ts';
import { DEPLOY_TOKEN_PREFIX, findDeployTokenForLogin } from '../../services/projects/deploy-tokens.ts';
import { BoundedMap } from '../../lib/bounded-map.ts';

export class GitHttpError extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
    readonly challenge = false,
    readonly headers: Record<string, string> = {},
  ) {
    super(text);
  }
}

export const REALM = 'Labrador';
export const accessDenied = () => new GitHttpError(401, 'HTTP Basic: Access denied', true);

export interface Credentials {
  login: string;
  password: string;
}

function basicCredentials(request: FastifyRequest): Credentials | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

// scrypt costs tens of milliseconds and a clone makes several requests. A verified password is
// remembered against the stored hash it matched, so a changed password (new hash) misses the cache:
// the database stays the source of truth.
const VERIFIED_MAX = 1000;
const verified = new BoundedMap<string, true>(VERIFIED_MAX);

async function passwordMatches(user: UserRow, password: string): Promise<boolean> {
  const key = `${user.encrypted_password}\0${crypto.createHash('sha256').update(password).digest('base64')}`;
  if (verified.has(key)) return true;
  if (!(await verifyPassword(password, user.encrypted_password))) return false;
  verified.set(key, true);
  return true;
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/**
 * The build behind `gitlab-ci-token:<build token>`, or null when the credentials are not a build's.
 * A token that names no build → 401, as a wrong password would.
 */
export async function authenticateBuild(deps: Deps, request: FastifyRequest): Promise<CiBuildRow | null> {
  const credentials = basicCredentials(request);
  if (!credentials || credentials.login !== 'gitlab-ci-token') return null;
  const build = await buildByGitToken(deps, credentials.password);
  if (!build) throw accessDenied();
  return build;
}

/**
 * The deploy token behind `<its username>:gldt-…`, or null when the password is not a deploy token's.
 * A secret that names no active token of that username → 401, as a wrong password would.
 */
export async function authenticateDeployToken(
  deps: Deps,
  request: FastifyRequest,
): Promise<DeployTokenRow | null> {
  const credentials = basicCredentials(request);
  if (!credentials || !credentials.password.startsWith(DEPLOY_TOKEN_PREFIX)) return null;
  const token = await findDeployTokenForLogin(deps, credentials.login, credentials.password);
  if (token) return token;
  await recordSignInFailure(deps, request.ip);
  throw accessDenied();
}

/**
 * The user the credentials name (with the scopes of the personal access token they gave, if one), or
 * null without credentials. Throws 401 for wrong credentials and 403 for blocked users.
 */
export async function authenticateGitUser(
  deps: Deps,
  request: FastifyRequest,
): Promise<Extract<GitActor, { user: UserRow }> | null> {
  const credentials = basicCredentials(request);
  if (!credentials) return null;
  const { login, password } = credentials;
  // A build's token is not a user: routes.ts asks authenticateBuild for it first.
  if (login === 'gitlab-ci-token') throw accessDenied();
  if (login === '' || password === '') throw accessDenied();
  // The shared limiter: a banned address is refused before any secret is compared.
  try {
    await assertNotBanned(deps, request.ip);
  } catch (error) {
    if (!(error instanceof SignInBanned)) throw error;
    throw new GitHttpError(429, 'Too many failed sign-ins from this address; retry later', false, {
      'Retry-After': String(error.retryAfterSeconds),
    });
  }
  if (password.startsWith(PERSONAL_ACCESS_TOKEN_PREFIX)) {
    const found = await findActiveAccessToken(deps, password);
    if (found) {
      if (!canSignIn(found.user)) throw new GitHttpError(403, 'Your account has been blocked.');
      await noteAccessTokenUse(deps, found.token);
      return { user: found.user, scopes: tokenScopes(found.token) };
    }
  }
  const user = await findUserByLogin(deps, login);
  const ok =
    user !== undefined &&
    (sameSecret(password, user.authentication_token) || (await passwordMatches(user, password)));
  if (!ok) {
    await recordSignInFailure(deps, request.ip);
    throw accessDenied();
  }
  if (!canSignIn(user)) throw new GitHttpError(403, 'Your account has been blocked.');
  return { user };
}
