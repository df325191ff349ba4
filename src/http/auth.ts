// Who is calling (reference/api-v3.md §2): the private token from the `private_token` parameter (it wins)
// or the PRIVATE-TOKEN header; blocked users count as nobody; administrators may act as another user
// with `sudo` / SUDO (with the 8.13.10 hardening: only administrators, and never silently for others).
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import {
  findUserById,
  findUserByToken,
  findUserByUsername,
  recordSignIn,
  type UserRow,
} from '../db/repositories/users.ts';
import { now } from '../db/errors.ts';
import { forbidden, notFound, unauthorized } from './errors.ts';
import { optionalString, requestParams } from './params.ts';

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

export function isActive(user: UserRow): boolean {
  return user.state === 'active';
}

export async function resolveViewer(deps: Deps, request: FastifyRequest): Promise<void> {
  request.viewer = null;
  request.sudo = false;
  const params = requestParams(request);
  const header = request.headers['private-token'];
  const token = optionalString(params, 'private_token') || (typeof header === 'string' ? header : undefined);
  if (token) {
    const user = await findUserByToken(deps.db.kysely, token);
    if (user && isActive(user)) {
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
  if (request.viewer.admin !== 1) throw forbidden('Must be admin to use sudo');
  const target = /^\d+$/.test(sudo)
    ? await findUserById(deps.db.kysely, Number(sudo))
    : await findUserByUsername(deps.db.kysely, sudo);
  if (!target) throw notFound(`No user id or username for: ${sudo}`);
  request.viewer = target;
  request.sudo = true;
}

/** The caller, for routes that declared themselves public but need a caller for this branch. */
export function requireViewer(request: FastifyRequest): UserRow {
  if (!request.viewer) throw unauthorized();
  return request.viewer;
}

export function requireAdmin(request: FastifyRequest): UserRow {
  const viewer = requireViewer(request);
  if (viewer.admin !== 1) throw forbidden();
  return viewer;
}
