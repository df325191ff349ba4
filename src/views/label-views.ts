// Labels of a project (unpaginated, A→Z) with their issue and open MR counts and the viewer's
// subscription, in four statements. 8.13 counted as an anonymous user: nothing on a project that is not public.
import type { Deps } from '../deps.ts';
import {
  findAvailableLabelById,
  findAvailableLabelByTitle,
  findGroupLabelById,
  findGroupLabelByTitle,
  findLabelById,
  findLabelByTitle,
  labelIssueCounts,
  labelOpenMergeRequestCounts,
  listGroupLabels,
  listProjectLabels,
} from '../db/repositories/labels.ts';
import { groupIssueScope } from './issue-views.ts';
import { readableMergeRequestProjects } from './merge-request-views.ts';
import { subscriptionsOf } from '../db/repositories/subscriptions.ts';
import type { LabelView } from '../presenters/api-v3/issue.ts';
import { Visibility } from '../domain/types.ts';
import { canReadIssues } from '../policies/issues.ts';
import { canReadMergeRequests } from '../policies/merge-requests.ts';
import type { ProjectAccess } from '../policies/access.ts';
import type { LabelRow, NamespaceRow, ProjectRecord, UserRow } from '../db/types.ts';

/**
 * Who the counts are for: 8.13 counted as an anonymous user (`v3`); v4 counts for the caller, what
 * it may read (`viewer`), or not at all when `with_counts` is not asked (`none`).
 */
type CountedFor = 'v3' | { viewer: ProjectAccess } | 'none';

async function loadLabelViews(
  deps: Deps,
  viewer: UserRow | null,
  record: ProjectRecord,
  labels: LabelRow[],
  countedFor: CountedFor = 'v3',
): Promise<LabelView[]> {
  const db = deps.db.kysely;
  const ids = labels.map((label) => label.id);
  const counted =
    countedFor === 'v3'
      ? record.project.visibility_level === Visibility.Public
      : countedFor !== 'none' && canReadIssues(countedFor.viewer, record);
  const mergeRequestsCounted =
    countedFor === 'v3'
      ? counted && record.project.merge_requests_enabled === 1
      : countedFor !== 'none' && canReadMergeRequests(countedFor.viewer, record);
  // v4 counts a group label shown in a project within that project; 8.13 had no group labels.
  const inProject = countedFor === 'v3' ? undefined : [record.project.id];
  const [counts, mergeRequestCounts, subscriptions] = await Promise.all([
    counted ? labelIssueCounts(db, ids, inProject) : new Map<number, { open: number; closed: number }>(),
    mergeRequestsCounted ? labelOpenMergeRequestCounts(db, ids, inProject) : new Map<number, number>(),
    viewer ? subscriptionsOf(db, 'Label', ids, viewer.id) : new Map<number, boolean>(),
  ]);
  return viewsOf(labels, counts, mergeRequestCounts, subscriptions);
}

function viewsOf(
  labels: LabelRow[],
  counts: Map<number, { open: number; closed: number }>,
  mergeRequestCounts: Map<number, number>,
  subscriptions: Map<number, boolean>,
): LabelView[] {
  return labels.map((label) => ({
    label,
    openIssues: counts.get(label.id)?.open ?? 0,
    closedIssues: counts.get(label.id)?.closed ?? 0,
    openMergeRequests: mergeRequestCounts.get(label.id) ?? 0,
    subscribed: subscriptions.get(label.id) ?? false,
  }));
}

export async function projectLabelList(deps: Deps, viewer: UserRow | null, record: ProjectRecord) {
  return loadLabelViews(deps, viewer, record, await listProjectLabels(deps.db.kysely, record.project.id));
}

/**
 * v4's labels of a project (A→Z; with its group's unless `include_ancestor_groups=false`), counted for the
 * caller within the project when `withCounts`.
 */
export async function projectLabelListForViewer(
  deps: Deps,
  viewer: UserRow | null,
  loaded: ProjectRecord & { access: ProjectAccess },
  labels: LabelRow[] | undefined,
  withCounts: boolean,
  withGroupLabels = true,
) {
  const rows = labels ?? (await listProjectLabels(deps.db.kysely, loaded.project.id, withGroupLabels));
  return loadLabelViews(deps, viewer, loaded, rows, withCounts ? { viewer: loaded.access } : 'none');
}

export async function loadLabelView(
  deps: Deps,
  viewer: UserRow,
  record: ProjectRecord,
  label: LabelRow,
): Promise<LabelView> {
  const [view] = await loadLabelViews(deps, viewer, record, [label]);
  return view!;
}

/**
 * `:label_id` of the label routes: a label id or a title; the project's own label, or (`withGroupLabels`,
 * as v4's reads and subscriptions do) its group's too.
 */
export async function findLabelByIdOrTitle(
  deps: Deps,
  projectId: number,
  idOrTitle: string,
  withGroupLabels = false,
): Promise<LabelRow | undefined> {
  const db = deps.db.kysely;
  if (/^\d{1,10}$/.test(idOrTitle)) {
    const id = Number(idOrTitle);
    const byId = withGroupLabels
      ? await findAvailableLabelById(db, projectId, id)
      : await findLabelById(db, projectId, id);
    if (byId) return byId;
  }
  return withGroupLabels
    ? findAvailableLabelByTitle(db, projectId, idOrTitle)
    : findLabelByTitle(db, projectId, idOrTitle);
}

/** A group's label by id or title (`:name` of the group label routes). */
export async function findGroupLabelByIdOrTitle(
  deps: Deps,
  groupId: number,
  idOrTitle: string,
): Promise<LabelRow | undefined> {
  const db = deps.db.kysely;
  if (/^\d{1,10}$/.test(idOrTitle)) {
    const byId = await findGroupLabelById(db, groupId, Number(idOrTitle));
    if (byId) return byId;
  }
  return findGroupLabelByTitle(db, groupId, idOrTitle);
}

/**
 * A group's labels (A→Z, or only `labels` given), counted when `withCounts` over the issues and merge
 * requests of the group's projects the viewer may read (a fixed number of statements).
 */
export async function groupLabelList(
  deps: Deps,
  viewer: UserRow,
  group: NamespaceRow,
  labels: LabelRow[] | undefined,
  withCounts: boolean,
): Promise<LabelView[]> {
  const db = deps.db.kysely;
  const rows = labels ?? (await listGroupLabels(db, group.id));
  const ids = rows.map((label) => label.id);
  const [issueProjects, mergeRequestProjects] = withCounts
    ? await Promise.all([
        groupIssueScope(db, viewer, group),
        readableMergeRequestProjects(deps, viewer, { groupId: group.id }),
      ])
    : [undefined, undefined];
  const [counts, mergeRequestCounts, subscriptions] = await Promise.all([
    issueProjects
      ? labelIssueCounts(db, ids, issueProjects.projectIds)
      : new Map<number, { open: number; closed: number }>(),
    mergeRequestProjects
      ? labelOpenMergeRequestCounts(db, ids, mergeRequestProjects.projectIds)
      : new Map<number, number>(),
    subscriptionsOf(db, 'Label', ids, viewer.id),
  ]);
  return viewsOf(rows, counts, mergeRequestCounts, subscriptions);
}
