// An issue's linked issues for v4's RelatedIssue entity: its links either way, then the other issues,
// their projects and the caller's access to them, and their Issue views, in a fixed number of
// statements; issues the caller may not read are left out.
import type { Deps } from '../deps.ts';
import { findIssueLink, listIssueLinks } from '../db/repositories/issue-links.ts';
import { findIssuesByIds } from '../db/repositories/issues.ts';
import { findProjectRecordsByIds } from '../db/repositories/projects.ts';
import { projectAccessMany, type ProjectAccess } from '../policies/access.ts';
import { canReadIssue } from '../policies/issues.ts';
import { loadIssueViews } from './issue-views.ts';
import type { IssueView } from '../presenters/api-v3/issue.ts';
import type { IssueLinkRow, IssueRow, UserRow } from '../db/types.ts';

export interface RelatedIssueView {
  view: IssueView;
  link: IssueLinkRow;
  /** As seen from the listed issue: `blocks` from its source is `is_blocked_by` from its target. */
  linkType: string;
}

export interface ReadableIssue {
  issue: IssueRow;
  view: IssueView;
  access: ProjectAccess;
}

/** Issues by id that the caller may read, with their views and the caller's access to their projects. */
export async function readableIssuesByIds(
  deps: Deps,
  viewer: UserRow,
  ids: number[],
): Promise<Map<number, ReadableIssue>> {
  const db = deps.db.kysely;
  const issues = await findIssuesByIds(db, [...new Set(ids)]);
  const records = await findProjectRecordsByIds(db, [...new Set(issues.map((issue) => issue.project_id))]);
  const byProject = new Map(records.map((record) => [record.project.id, record]));
  const access = await projectAccessMany(db, viewer, records);
  const readable = issues.filter((issue) => {
    const record = byProject.get(issue.project_id);
    return record !== undefined && canReadIssue(viewer, access.get(record.project.id)!, record, issue);
  });
  const views = await loadIssueViews(deps, viewer, readable, records);
  const result = new Map<number, ReadableIssue>();
  for (const view of views)
    result.set(view.issue.id, { issue: view.issue, view, access: access.get(view.issue.project_id)! });
  return result;
}

export async function relatedIssues(
  deps: Deps,
  viewer: UserRow,
  issue: IssueRow,
): Promise<RelatedIssueView[]> {
  const links = await listIssueLinks(deps.db.kysely, issue.id);
  const others = links.map((link) => (link.source_id === issue.id ? link.target_id : link.source_id));
  const readable = await readableIssuesByIds(deps, viewer, others);
  const result: RelatedIssueView[] = [];
  for (const link of links) {
    const outgoing = link.source_id === issue.id;
    const other = readable.get(outgoing ? link.target_id : link.source_id);
    if (!other) continue;
    const linkType = link.link_type === 'blocks' && !outgoing ? 'is_blocked_by' : link.link_type;
    result.push({ view: other.view, link, linkType });
  }
  return result;
}

export function findLinkOfIssue(deps: Deps, issueId: number, id: number): Promise<IssueLinkRow | undefined> {
  return findIssueLink(deps.db.kysely, issueId, id);
}
