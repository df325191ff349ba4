// Small readers the collaboration pages share: a number in a path or form (an iid, an id, a page), the
// milestone and label fields of the issue and merge request forms, and the signed-in viewer a write
// needs (a signed-out visitor is asked to sign in).
import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../errors.ts';
import { optionalString, optionalStringList, type Params } from '../../http/params.ts';
import type { UserRow } from '../../db/types.ts';

/** A positive integer as text, or undefined for anything else (which pages answer as not found). */
export function positiveInteger(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
}

export function signedIn(request: FastifyRequest): UserRow {
  if (!request.viewer) throw unauthorized();
  return request.viewer;
}

/**
 * `<scope>[milestone_id]` and `<scope>[label_ids][]` as the services take them: a milestone id or none,
 * and the titles of the ticked labels among the project's (`labels`). A field the form lacked (it is
 * shown only to who may set it) stays undefined, so nothing changes.
 */
export function milestoneAndLabelInput(
  params: Params,
  scope: 'issue' | 'merge_request',
  labels: Array<{ id: number; title: string }>,
): { milestoneId?: number | null; labels?: string[] } {
  const input: { milestoneId?: number | null; labels?: string[] } = {};
  const milestone = optionalString(params, `${scope}[milestone_id]`);
  if (milestone !== undefined) input.milestoneId = positiveInteger(milestone) ?? null;
  const labelIds = optionalStringList(params, `${scope}[label_ids]`);
  if (labelIds !== undefined) {
    const wanted = new Set(labelIds);
    input.labels = labels.filter((label) => wanted.has(String(label.id))).map((label) => label.title);
  }
  return input;
}
