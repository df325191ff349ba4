// What the SSH key and email routes share: the administrators' /users/:uid/… lookups and GitLab's
// answer shapes for them (reference/api-v3.md §7.6, §7.7; reference/README rows 39, 40, 47).
import type { FastifyReply } from 'fastify';
import type { Deps } from '../../deps.ts';
import { findUserById, type UserRow } from '../../db/repositories/users.ts';
import { ApiError, validationFailed } from '../../http/errors.ts';
import { pathId, presentString, type Params } from '../../http/params.ts';

/**
 * GitLab's users resource only matched digits for `:id`/`:uid`; anything else fell to the catch-all
 * `{"error":"404 Not Found"}` before authentication, which a route that does not match gives us too.
 */
export const digits = (name: string) => `:${name}(^\\d+$)`;

/** The user named by a digits-only path segment; undefined for one that does not exist (or overflows). */
export async function findTargetUser(deps: Deps, segment: unknown): Promise<UserRow | undefined> {
  const id = pathId(segment);
  return id === undefined ? undefined : findUserById(deps.db.kysely, id);
}

/**
 * The required text parameters, in order; missing or blank ones are reported as the validation hash
 * `{"message":{"title":["can't be blank"]}}` (README row 40), not GitLab's `"title" not given` string.
 */
export function requiredFields<T extends string>(params: Params, names: T[]): Record<T, string> {
  const values = {} as Record<T, string>;
  const missing: Record<string, string[]> = {};
  for (const name of names) {
    const value = presentString(params, name);
    if (value === undefined) missing[name] = ["can't be blank"];
    else values[name] = value;
  }
  if (Object.keys(missing).length > 0) throw validationFailed(missing);
  return values;
}

/**
 * Administrators adding a key or email for a user: every failure is a 404 carrying GitLab's own body
 * (README row 39). Authentication (401) and non-administrators (403) keep their statuses.
 */
export async function failuresAsNotFound<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && error.status !== 401 && error.status !== 403 && error.status < 500) {
      throw new ApiError(404, error.body, error.headers);
    }
    throw error;
  }
}

/** A JSON `null` body: what GitLab's DELETE endpoints printed when there was nothing to show. */
export function sendNull(reply: FastifyReply): FastifyReply {
  return reply.type('application/json; charset=utf-8').send('null');
}
