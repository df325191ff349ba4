// Issue links (GitLab's IssueLinks::CreateService / DestroyService): a two-way relation between two
// issues, `relates_to` or `blocks` (`is_blocked_by` is stored as the target's `blocks`), each side's
// system note recorded in the same transaction. The caller must be a reporter (or more) of both issues'
// projects; a pair is linked at most once, whichever way round.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { apiError } from '../../errors.ts';
import { deleteIssueLink, findLinkBetween, insertIssueLink } from '../../db/repositories/issue-links.ts';
import { addSystemNote } from './issue-activity.ts';
import type { IssueLinkRow, IssueRow, ProjectRecord, UserRow } from '../../db/types.ts';
import { projectFullPath } from '../../domain/paths.ts';

export type LinkType = 'relates_to' | 'blocks' | 'is_blocked_by';

export interface LinkedIssue {
  issue: IssueRow;
  record: ProjectRecord;
}

const alreadyLinked = () => apiError(409, 'Issue(s) already assigned');

/** `#4` within the same project, `group/project#4` from another. */
function referenceFrom(from: LinkedIssue, to: LinkedIssue): string {
  return from.issue.project_id === to.issue.project_id
    ? `#${to.issue.iid}`
    : `${projectFullPath(to.record)}#${to.issue.iid}`;
}

function relationNote(linkType: string, inverse: boolean): string {
  if (linkType === 'blocks')
    return inverse ? 'marked this issue as blocked by' : 'marked this issue as blocking';
  return 'marked this issue as related to';
}

export async function createIssueLink(
  deps: Deps,
  viewer: UserRow,
  source: LinkedIssue,
  target: LinkedIssue,
  linkType: LinkType,
): Promise<IssueLinkRow> {
  if (source.issue.id === target.issue.id) throw apiError(400, 'Cannot link an issue to itself');
  const [from, to] = linkType === 'is_blocked_by' ? [target, source] : [source, target];
  const stored = linkType === 'relates_to' ? 'relates_to' : 'blocks';
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      if (await findLinkBetween(trx, from.issue.id, to.issue.id)) throw alreadyLinked();
      const at = now();
      const link = await insertIssueLink(trx, {
        sourceId: from.issue.id,
        targetId: to.issue.id,
        linkType: stored,
        at,
      });
      await addSystemNote(
        trx,
        from.issue,
        viewer,
        `${relationNote(stored, false)} ${referenceFrom(from, to)}`,
        at,
      );
      await addSystemNote(
        trx,
        to.issue,
        viewer,
        `${relationNote(stored, true)} ${referenceFrom(to, from)}`,
        at,
      );
      return link;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyLinked();
    throw error;
  }
}

export async function destroyIssueLink(
  deps: Deps,
  viewer: UserRow,
  link: IssueLinkRow,
  source: LinkedIssue,
  target: LinkedIssue,
): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    await deleteIssueLink(trx, link.id);
    const at = now();
    await addSystemNote(
      trx,
      source.issue,
      viewer,
      `removed the relation with ${referenceFrom(source, target)}`,
      at,
    );
    await addSystemNote(
      trx,
      target.issue,
      viewer,
      `removed the relation with ${referenceFrom(target, source)}`,
      at,
    );
  });
}
