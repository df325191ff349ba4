// Issue links: an issue's links either way, oldest first, through the (source_id, target_id) and
// (target_id, source_id) indexes.
import type { Executor, IssueLinkRow } from '../types.ts';

/** Every link of the issue, either side of it, oldest first (a list GitLab does not paginate). */
export function listIssueLinks(db: Executor, issueId: number): Promise<IssueLinkRow[]> {
  return db
    .selectFrom('issue_links')
    .selectAll()
    .where((eb) => eb.or([eb('source_id', '=', issueId), eb('target_id', '=', issueId)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A link of the issue by id (either side of it). */
export function findIssueLink(db: Executor, issueId: number, id: number): Promise<IssueLinkRow | undefined> {
  return db
    .selectFrom('issue_links')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('source_id', '=', issueId), eb('target_id', '=', issueId)]))
    .executeTakeFirst();
}

/** The link between two issues, in either direction. */
export function findLinkBetween(db: Executor, a: number, b: number): Promise<IssueLinkRow | undefined> {
  return db
    .selectFrom('issue_links')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('source_id', '=', a), eb('target_id', '=', b)]),
        eb.and([eb('source_id', '=', b), eb('target_id', '=', a)]),
      ]),
    )
    .executeTakeFirst();
}

export function insertIssueLink(
  db: Executor,
  values: { sourceId: number; targetId: number; linkType: string; at: string },
): Promise<IssueLinkRow> {
  return db
    .insertInto('issue_links')
    .values({
      source_id: values.sourceId,
      target_id: values.targetId,
      link_type: values.linkType,
      created_at: values.at,
      updated_at: values.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteIssueLink(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('issue_links').where('id', '=', id).execute();
}
