// Who is calling: the private token from the `private_token` parameter (it wins) or the PRIVATE-TOKEN
// header; blocked users count as nobody; administrators may act as another user with `sudo` / SUDO
// (hardened as GitLab 8.13.10 did: only administrators, and an unknown user is a 404, never ignored).
// This runs before every request, so it costs one indexed lookup (two with sudo) and writes only once.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { findUserById, findUserByToken, findUserByUsername, recordSignIn } from '../db/repositories/users.ts';
import { now } from '../lib/clock.ts';
import { forbidden, notFound, unauthorized } from '../errors.ts';
import { isAdministrator, canSignIn } from '../policies/users.ts';
import { optionalString, pathId, requestParams } from './params.ts';
import type { UserRow } from '../db/types.ts';

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
  }
}

export async function resolveViewer(deps: Deps, request: FastifyRequest): Promise<void> {
  request.viewer = null;
  request.sudo = false;
  const params = requestParams(request);
  const header = request.headers['private-token'];
  const token = optionalString(params, 'private_token') || (typeof header === 'string' ? header : undefined);
  if (token) {
    const user = await findUserByToken(deps.db.kysely, token);
    if (user && canSignIn(user)) {
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
