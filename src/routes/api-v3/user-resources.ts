// What the users, SSH key and email routes share: the digits-only `:id` GitLab's users resource matched,
// and GitLab's answer shapes for administrators working on another user's keys and emails.
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../errors.ts';

/**
 * GitLab's users resource only matched digits for `:id`/`:uid`; anything else fell to the catch-all
 * `{"error":"404 Not Found"}` before authentication, which a route that does not match gives us too.
 */
export const digits = (name: string) => `:${name}(^\\d+$)`;

/**
 * Administrators adding a key or email for a user: every failure is a 404 carrying GitLab's own body
 * (a missing parameter, an invalid or duplicate value, an unknown user). Authentication (401) and
 * non-administrators (403) keep their statuses.
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
