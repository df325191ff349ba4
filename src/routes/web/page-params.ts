// Small readers the collaboration pages share: a number in a path or form (an iid, an id, a page), and
// the signed-in viewer a write needs (a signed-out visitor is asked to sign in).
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../errors.ts';
import type { UserRow } from '../../db/types.ts';

/** A positive integer as text, or undefined for anything else (which pages answer as not found). */
export function positiveInteger(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}

export function signedIn(request: FastifyRequest): UserRow {
  if (!request.viewer) throw unauthorized();
  return request.viewer;
}
