// What the merge request pages show, read through the API's merge request views: a list page is its four
// tab counts and one page presented as GET …/merge_requests presents it; one merge request is the
// presented MR with, for its tabs, its commits or its diff from the merge base.
import type { Deps } from '../deps.ts';
import { countMergeRequests } from '../db/repositories/merge-requests.ts';
import { branchList } from './branch-views.ts';
import {
  listMergeRequestsOf,
  mergeRequestDiffs,
  mergeRequestListQuery,
  type MergeRequestFilters,
} from './merge-request-views.ts';
import { withLineStats } from './repository-pages.ts';
import { tabCounts } from './tab-counts.ts';
import { presentMergeRequest } from '../presenters/api-v3/merge-request.ts';
import { presentUserBasic } from '../presenters/api-v3/user.ts';
import { findUserById } from '../db/repositories/users.ts';
import { headPipeline } from '../services/merge-requests/merge-when-build-succeeds.ts';
import { pipelinesWithStages } from './ci-page-views.ts';
import type { MergeRequestRow, ProjectRecord, UserRow } from '../db/types.ts';

export const MERGE_REQUEST_TABS = ['opened', 'merged', 'closed', 'all'] as const;
export type MergeRequestTabState = (typeof MERGE_REQUEST_TABS)[number];

export async function mergeRequestListView(
  deps: Deps,
  viewer: UserRow | null,
  record: ProjectRecord,
  state: MergeRequestTabState,
  page: { limit: number; offset: number },
  filters: MergeRequestFilters & { orderBy?: 'created_at' | 'updated_at'; sort?: 'asc' | 'desc' } = {},
) {
  // Each tab's count keeps the filters, as 8.13's issuable tabs counted them.
  const { orderBy, sort, ...narrowing } = filters;
  const query = (tab: MergeRequestTabState) =>
    mergeRequestListQuery(record, { state: tab, iids: null, orderBy, sort }, narrowing);
  const count = (tab: MergeRequestTabState) => countMergeRequests(deps.db.kysely, query(tab));
  // One more row than the page tells whether there is a next page.
  const [counts, rows] = await Promise.all([
    tabCounts(MERGE_REQUEST_TABS, count),
    listMergeRequestsOf(deps, record, viewer, query(state), page.offset, page.limit + 1),
  ]);
  return {
    counts,
    // The pages are drawn from the API's MergeRequest entity (presenters/html takes its shape).
    mergeRequests: rows
      .slice(0, page.limit)
      .map((view) => presentMergeRequest(view, deps.config.externalUrl)),
    hasNext: rows.length > page.limit,
  };
}

export async function mergeRequestDiffFiles(deps: Deps, target: ProjectRecord, mr: MergeRequestRow) {
  const { diffs, overflow } = await mergeRequestDiffs(deps, target, mr);
  return { diffs: withLineStats(diffs), overflow: overflow || diffs.some((diff) => diff.tooLarge) };
}

/** The branch names a new merge request may choose from (source and target are the same project). */
export async function branchNames(deps: Deps, record: ProjectRecord): Promise<string[]> {
  return (await branchList(deps, record)).map((branch) => branch.name);
}

/**
 * The merge widget's CI: the head pipeline with its stages (a merge request within the project only: a
 * fork's pipeline lives in the fork) and who armed the automatic merge.
 */
export async function mergeRequestCiView(deps: Deps, record: ProjectRecord, mr: MergeRequestRow) {
  const own = mr.source_project_id === record.project.id;
  const armed = Number(mr.merge_when_build_succeeds) === 1 && mr.merge_user_id !== null;
  const [pipeline, mergeUser] = await Promise.all([
    own ? headPipeline(deps, mr) : undefined,
    armed ? findUserById(deps.db.kysely, mr.merge_user_id!) : undefined,
  ]);
  const [shown] = pipeline ? await pipelinesWithStages(deps, [pipeline]) : [];
  return {
    pipelineRow: pipeline,
    pipeline: shown ?? null,
    mergeUser: mergeUser ? presentUserBasic(mergeUser, deps.config.externalUrl) : null,
  };
}
