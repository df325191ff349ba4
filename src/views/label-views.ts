// Labels of a project (unpaginated, A→Z) with their issue and open MR counts and the viewer's
// subscription, in four statements. 8.13 counted as an anonymous user: nothing on a project that is not public.
import type { Deps } from '../deps.ts';
import {
  findLabelById,
  findLabelByTitle,
  labelIssueCounts,
  labelOpenMergeRequestCounts,
  listProjectLabels,
} from '../db/repositories/labels.ts';
import { subscriptionsOf } from '../db/repositories/subscriptions.ts';
import type { LabelView } from '../presenters/api-v3/issue.ts';
import { Visibility } from '../domain/types.ts';
import { canReadIssues } from '../policies/issues.ts';
import { canReadMergeRequests } from '../policies/merge-requests.ts';
import type { ProjectAccess } from '../policies/access.ts';
import type { LabelRow, ProjectRecord, UserRow } from '../db/types.ts';

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
  const [counts, mergeRequestCounts, subscriptions] = await Promise.all([
    counted ? labelIssueCounts(db, ids) : new Map<number, { open: number; closed: number }>(),
    mergeRequestsCounted ? labelOpenMergeRequestCounts(db, ids) : new Map<number, number>(),
    viewer ? subscriptionsOf(db, 'Label', ids, viewer.id) : new Map<number, boolean>(),
  ]);
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

/** v4's labels of a project (A→Z), counted for the caller when `withCounts`. */
export async function projectLabelListForViewer(
  deps: Deps,
  viewer: UserRow | null,
  loaded: ProjectRecord & { access: ProjectAccess },
  labels: LabelRow[] | undefined,
  withCounts: boolean,
) {
  const rows = labels ?? (await listProjectLabels(deps.db.kysely, loaded.project.id));
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

/** `:label_id` of the subscription routes: a label id or a title. */
export async function findLabelByIdOrTitle(
  deps: Deps,
  projectId: number,
  idOrTitle: string,
): Promise<LabelRow | undefined> {
  const db = deps.db.kysely;
  if (/^\d{1,10}$/.test(idOrTitle)) {
    const byId = await findLabelById(db, projectId, Number(idOrTitle));
    if (byId) return byId;
  }
  return findLabelByTitle(db, projectId, idOrTitle);
}
