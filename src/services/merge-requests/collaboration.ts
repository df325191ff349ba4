// Merge requests as noteables, subscribables and todo targets: the issue-side services (notes, award
// emoji, subscriptions, todos) take an MR through these, so both kinds share one implementation.
import type { Deps } from '../../deps.ts';
import { updateMergeRequest } from '../../db/repositories/merge-requests.ts';
import { mergeRequestHookAttributes } from '../../presenters/hooks/merge-request-hook-payloads.ts';
import { mergeRequestWebUrl } from '../../domain/paths.ts';
import { hookParts } from './merge-requests.ts';
import type { Issuable } from '../issues/issues.ts';
import type { Noteable } from '../issues/notes.ts';
import { MERGE_REQUEST } from '../../domain/types.ts';
import type { MergeRequestRow, ProjectRecord } from '../../db/types.ts';

export function mergeRequestIssuable(mr: MergeRequestRow): Issuable {
  return {
    type: MERGE_REQUEST,
    id: mr.id,
    projectId: mr.target_project_id,
    author_id: mr.author_id,
    assignee_id: mr.assignee_id,
  };
}

/**
 * The MR as a note's noteable: what its note hook's `merge_request` needs from git and the source project
 * is read here, before the note's transaction; the touch of updated_at happens in it.
 */
export async function mergeRequestNoteable(
  deps: Deps,
  target: ProjectRecord,
  mr: MergeRequestRow,
): Promise<Noteable> {
  const parts = await hookParts(deps, target, mr);
  return {
    type: MERGE_REQUEST,
    id: mr.id,
    projectId: mr.target_project_id,
    authorId: mr.author_id,
    mentioner: { kind: 'merge_request', row: mr },
    touch: async (trx, at) => {
      const touched = (await updateMergeRequest(trx, mr.id, { updated_at: at })) ?? mr;
      return {
        key: 'merge_request',
        attributes: mergeRequestHookAttributes(
          { mr: touched, target, source: parts.source, lastCommit: parts.lastCommit },
          deps.config.externalUrl,
          deps.config.ssh.cloneUrlBase,
        ),
        url: mergeRequestWebUrl(deps.config.externalUrl, target, mr.iid),
      };
    },
  };
}
