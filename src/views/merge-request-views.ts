// Reads of merge requests: a page is two statements for the rows (an indexed walk of ids, then the
// rows), then one each for their authors and assignees, milestones, labels, votes, note counts and the
// viewer's subscriptions and participation; commits and changes read the target repository, where
// the source head lives (a fork's is fetched there first).
import { projectRepositoryPath } from '../git/repository.ts';
import type { Deps } from '../deps.ts';
import {
  countMergeRequests,
  countMergeRequestsUpTo,
  isPlainProjectList,
  keptMergeRequestCount,
  findMergeRequest,
  userMergeRequestProjectIds,
  listMergeRequests,
  OPEN_STATES,
  type MergeRequestListQuery,
} from '../db/repositories/merge-requests.ts';
import { usersByIds } from '../db/repositories/users.ts';
import { findProjectRecordsByIds } from '../db/repositories/projects.ts';
import { authorizedProjectIds } from '../db/repositories/project-lists.ts';
import { namespaceProjectIds } from '../db/repositories/group-projects.ts';
import { projectAccessMany } from '../policies/access.ts';
import { canReadMergeRequests } from '../policies/merge-requests.ts';
import { headPipeline } from '../services/merge-requests/merge-when-build-succeeds.ts';
import { pipelinesOfRefAtShas } from '../db/repositories/pipelines.ts';
import {
  findIssuesByIids,
  labelTitlesByTarget,
  userNoteCounts,
  voteCounts,
} from '../db/repositories/issues.ts';
import { milestonesByIds } from '../db/repositories/milestones.ts';
import { subscriptionsOf } from '../db/repositories/subscriptions.ts';
import { participatedIds } from '../db/repositories/participants.ts';
import { MERGE_REQUEST } from '../domain/types.ts';
import { collectCommits } from '../git/commit-log.ts';
import { diffTrees, EMPTY_TREE, mergeBase } from '../git/diffs.ts';
import type { MergeRequestView } from '../presenters/api-v3/merge-request.ts';
import { findMergeRequestDiff, listMergeRequestDiffs } from '../db/repositories/merge-request-diffs.ts';
import { recordNotFound } from '../errors.ts';
import {
  canBeMergedBy,
  ensureHeadInTarget,
  type AccessibleProject,
} from '../services/merge-requests/merge-requests.ts';
import {
  closingIssueIids,
  comparisonBase,
  mergeRequestGitCommits,
} from '../services/merge-requests/closing-issues.ts';
import { canReadIssue } from '../policies/issues.ts';
import { COMMIT_DIFF_LIMITS } from './commit-views.ts';
import { requireCommitId } from './repository-access.ts';
import { git } from '../git/exec.ts';
import { isAncestor } from '../git/revisions.ts';
import type { IssueRow, MergeRequestRow, MergeRequestState, ProjectRecord, UserRow } from '../db/types.ts';

export interface MergeRequestListParams {
  state: string | undefined;
  iids: number[] | null;
  orderBy: string | undefined;
  sort: string | undefined;
}

/** `opened` = opened + reopened; `closed`, `merged`; anything else (incl. `all`) = every state. */
function statesOf(state: string | undefined): MergeRequestState[] | null {
  if (state === 'opened') return OPEN_STATES;
  if (state === 'closed' || state === 'merged') return [state];
  return null;
}

/** v4's further filters (author, assignee, branches, search, labels, milestone, times). */
export type MergeRequestFilters = Omit<
  MergeRequestListQuery,
  'targetProjectIds' | 'states' | 'iids' | 'orderBy' | 'sort'
>;

/** The list query of one target project's MRs, or of several target projects' (by id). */
export function mergeRequestListQuery(
  target: ProjectRecord | number[],
  params: MergeRequestListParams,
  filters: MergeRequestFilters = {},
): MergeRequestListQuery {
  return {
    ...filters,
    targetProjectIds: Array.isArray(target) ? target : [target.project.id],
    states: statesOf(params.state),
    iids: params.iids,
    orderBy: params.orderBy === 'updated_at' ? 'updated_at' : 'created_at',
    sort: params.sort === 'asc' ? 'asc' : 'desc',
  };
}

/** A merge request by its iid within the target project (the pages' and web_url's number). */
export async function findMergeRequestByIid(
  deps: Deps,
  target: ProjectRecord,
  iid: number,
): Promise<MergeRequestRow | undefined> {
  const query = mergeRequestListQuery(target, {
    state: 'all',
    iids: [iid],
    orderBy: undefined,
    sort: undefined,
  });
  return (await listMergeRequests(deps.db.kysely, query, 0, 1))[0];
}

/** A merge request (not deleted) by its global id, when `target` is its target project. */
export function findMergeRequestOfProject(
  deps: Deps,
  target: ProjectRecord,
  id: number,
): Promise<MergeRequestRow | undefined> {
  return findMergeRequest(deps.db.kysely, target.project.id, id);
}

export function countMergeRequestsOf(deps: Deps, query: MergeRequestListQuery): Promise<number> {
  return countMergeRequests(deps.db.kysely, query);
}

/**
 * What the MergeRequest entity embeds, for a page of MRs in a fixed number of statements; `targets` has
 * the target project of each (an MR whose project is missing is left out). Several projects' MRs at
 * once: a todo list's targets, a dashboard.
 */
export async function loadMergeRequestViews(
  deps: Deps,
  targets: Map<number, ProjectRecord>,
  viewer: UserRow | null,
  rows: MergeRequestRow[],
): Promise<MergeRequestView[]> {
  const ids = new Set<number>();
  const milestoneIds = new Set<number>();
  for (const mr of rows) {
    if (mr.author_id !== null) ids.add(mr.author_id);
    if (mr.assignee_id !== null) ids.add(mr.assignee_id);
    if (mr.milestone_id !== null) milestoneIds.add(mr.milestone_id);
  }
  const db = deps.db.kysely;
  const mrIds = rows.map((mr) => mr.id);
  const [users, milestones, labels, votes, notes, subscriptions, participated] = await Promise.all([
    usersByIds(db, [...ids]),
    milestonesByIds(db, [...milestoneIds]),
    labelTitlesByTarget(db, MERGE_REQUEST, mrIds),
    voteCounts(db, MERGE_REQUEST, mrIds),
    userNoteCounts(db, MERGE_REQUEST, mrIds),
    viewer ? subscriptionsOf(db, MERGE_REQUEST, mrIds, viewer.id) : new Map<number, boolean>(),
    viewer ? participatedIds(db, MERGE_REQUEST, viewer.id, mrIds) : new Set<number>(),
  ]);
  const user = (id: number | null) => (id === null ? undefined : users.get(id));
  return rows.flatMap((mr) => {
    const target = targets.get(mr.target_project_id);
    if (!target) return [];
    const participant =
      viewer !== null &&
      (viewer.id === mr.author_id || viewer.id === mr.assignee_id || participated.has(mr.id));
    return [
      {
        mr,
        target,
        author: user(mr.author_id),
        assignee: user(mr.assignee_id),
        upvotes: votes.get(mr.id)?.up ?? 0,
        downvotes: votes.get(mr.id)?.down ?? 0,
        userNotesCount: notes.get(mr.id) ?? 0,
        labels: labels.get(mr.id) ?? [],
        milestone: mr.milestone_id === null ? null : (milestones.get(mr.milestone_id) ?? null),
        subscribed: subscriptions.get(mr.id) ?? participant,
      },
    ];
  });
}

function viewsOfProject(deps: Deps, target: ProjectRecord, viewer: UserRow | null, rows: MergeRequestRow[]) {
  return loadMergeRequestViews(deps, new Map([[target.project.id, target]]), viewer, rows);
}

export async function listMergeRequestsOf(
  deps: Deps,
  target: ProjectRecord,
  viewer: UserRow | null,
  query: MergeRequestListQuery,
  offset: number,
  limit: number,
) {
  return viewsOfProject(deps, target, viewer, await listMergeRequests(deps.db.kysely, query, offset, limit));
}

export async function loadMergeRequestView(
  deps: Deps,
  target: ProjectRecord,
  viewer: UserRow | null,
  mr: MergeRequestRow,
): Promise<MergeRequestView> {
  return (await viewsOfProject(deps, target, viewer, [mr]))[0]!;
}

/** The MR's commits (the route presents them as the API's RepoCommit). */
export function mergeRequestCommits(deps: Deps, target: ProjectRecord, mr: MergeRequestRow) {
  return mergeRequestGitCommits(deps, target, mr);
}

/** The diff from the merge base to the MR's head, bounded as a commit's diff is. */
export async function mergeRequestDiffs(deps: Deps, target: ProjectRecord, mr: MergeRequestRow) {
  if (!(await ensureHeadInTarget(deps, target, mr))) return { diffs: [], overflow: false };
  const repoPath = projectRepositoryPath(deps.config.dataDir, target);
  const base = await comparisonBase(deps, target, mr);
  const from = (base && (await mergeBase(repoPath, base, mr.head_sha!))) ?? EMPTY_TREE;
  return diffTrees(repoPath, from, mr.head_sha!, COMMIT_DIFF_LIMITS);
}

/** The MR with `changes`: the diff from the merge base to its head, bounded as a commit's diff is. */
export async function mergeRequestChanges(
  deps: Deps,
  target: ProjectRecord,
  viewer: UserRow | null,
  mr: MergeRequestRow,
) {
  const view = await loadMergeRequestView(deps, target, viewer, mr);
  const { diffs } = await mergeRequestDiffs(deps, target, mr);
  return { view, diffs };
}

/**
 * GET …/closes_issues: the issues its merge would close (closing-issues.ts), those the viewer may read, in
 * the order they are named.
 */
export async function mergeRequestClosesIssues(
  deps: Deps,
  target: AccessibleProject,
  viewer: UserRow,
  mr: MergeRequestRow,
): Promise<IssueRow[]> {
  const iids = await closingIssueIids(deps, target, mr);
  if (iids.length === 0) return [];
  const issues = await findIssuesByIids(deps.db.kysely, target.project.id, iids);
  return issues
    .filter((issue) => canReadIssue(viewer, target.access, target, issue))
    .sort((a, b) => iids.indexOf(a.iid) - iids.indexOf(b.iid));
}

/** GET …/versions: every version of the MR, newest first (one query). */
export function mergeRequestVersions(deps: Deps, mr: MergeRequestRow) {
  return listMergeRequestDiffs(deps.db.kysely, mr.id);
}

/** GET …/versions/:version_id: the version's commits and its diff, bounded as a commit's diff is. */
export async function mergeRequestVersion(
  deps: Deps,
  target: ProjectRecord,
  mr: MergeRequestRow,
  versionId: number | undefined,
) {
  const version =
    versionId === undefined ? undefined : await findMergeRequestDiff(deps.db.kysely, mr.id, versionId);
  if (!version) throw recordNotFound();
  const head = version.head_commit_sha;
  if (version.state === 'empty' || !head) return { version, commits: [], diffs: [] };
  const repoPath = projectRepositoryPath(deps.config.dataDir, target);
  const base = version.base_commit_sha;
  const [commits, { diffs }] = await Promise.all([
    collectCommits(repoPath, [head, ...(base ? [`^${base}`] : []), '--']),
    diffTrees(repoPath, base ?? EMPTY_TREE, head, COMMIT_DIFF_LIMITS),
  ]);
  return { version, commits, diffs };
}

/**
 * The target projects (by id) whose MRs a list beyond one project covers: a group's projects, or for
 * v4's `scope` the projects of the caller's own MRs (created_by_me), of those assigned to the caller
 * (assigned_to_me), or the projects the caller is a member of (all); each only where the caller may
 * read merge requests.
 */
export async function readableMergeRequestProjects(
  deps: Deps,
  viewer: UserRow,
  of: { groupId: number } | { scope: 'created_by_me' | 'assigned_to_me' | 'all' },
): Promise<{ projectIds: number[]; records: ProjectRecord[]; person: MergeRequestFilters }> {
  const db = deps.db.kysely;
  let person: MergeRequestFilters = {};
  let candidates: number[];
  if ('groupId' in of) {
    candidates = await namespaceProjectIds(db, of.groupId);
  } else if (of.scope === 'all') {
    candidates = (await authorizedProjectIds(db, viewer.id).execute()).map((row) => row.id);
  } else {
    person = of.scope === 'created_by_me' ? { authorId: viewer.id } : { assigneeId: viewer.id };
    candidates = await userMergeRequestProjectIds(db, person as { authorId?: number; assigneeId?: number });
  }
  const records = await findProjectRecordsByIds(db, candidates);
  const access = await projectAccessMany(db, viewer, records);
  const readable = records.filter((record) => canReadMergeRequests(access.get(record.project.id)!, record));
  return { projectIds: readable.map((record) => record.project.id), records: readable, person };
}

/** A page of MRs of several target projects (`records` has each target). */
export async function listMergeRequestsAcross(
  deps: Deps,
  records: ProjectRecord[],
  viewer: UserRow,
  query: MergeRequestListQuery,
  offset: number,
  limit: number,
) {
  const rows = await listMergeRequests(deps.db.kysely, query, offset, limit);
  return loadMergeRequestViews(deps, new Map(records.map((r) => [r.project.id, r])), viewer, rows);
}

/** X-Total of a list: a whole project's from the kept counts, else counted no further than `cap` (undefined past it). */
export async function countMergeRequestList(
  deps: Deps,
  query: MergeRequestListQuery,
  cap: number,
): Promise<number | undefined> {
  if (isPlainProjectList(query)) {
    return keptMergeRequestCount(deps.db.kysely, query.targetProjectIds[0]!, query.states);
  }
  const counted = await countMergeRequestsUpTo(deps.db.kysely, query, cap);
  return counted > cap ? undefined : counted;
}

/** What the single MR entity adds: its head pipeline, its newest version, whether the caller may merge. */
export async function mergeRequestDetail(
  deps: Deps,
  target: AccessibleProject,
  viewer: UserRow,
  mr: MergeRequestRow,
) {
  const [headPipelineRow, versions, canMerge] = await Promise.all([
    headPipeline(deps, mr),
    listMergeRequestDiffs(deps.db.kysely, mr.id),
    canBeMergedBy(deps, viewer, target, mr),
  ]);
  return { headPipeline: headPipelineRow, latestVersion: versions[0], canMerge };
}

/**
 * GET …/pipelines: the source branch's pipelines at the MR's commits and the MR's own merge request
 * pipelines, newest first.
 */
export async function mergeRequestPipelines(deps: Deps, target: ProjectRecord, mr: MergeRequestRow) {
  if (mr.source_project_id === null) return [];
  const commits = await mergeRequestGitCommits(deps, target, mr);
  return pipelinesOfRefAtShas(
    deps.db.kysely,
    mr.source_project_id,
    mr.source_branch,
    commits.map((commit) => commit.id),
    mr.id,
  );
}

/**
 * GET …/repository/commits/:sha/merge_requests: the target project's MRs whose commits (as …/commits
 * lists them: the head's commits that the comparison base lacks) hold the commit, newest first. Two git
 * processes answer for every MR not yet merged: the MRs whose refs/merge-requests/<iid>/head reaches
 * the commit, and the branches that reach it (an MR whose target branch has the commit only starts
 * from it). A merged MR's base is its own (the merge's first parent, or its last version's base), so
 * each merged candidate costs one ancestry check, run one after another.
 */
export async function mergeRequestsWithCommit(
  deps: Deps,
  target: AccessibleProject,
  viewer: UserRow,
  revision: string,
): Promise<MergeRequestView[]> {
  const { repoPath, commitId } = await requireCommitId(deps, target, revision);
  const refsContaining = async (prefix: string) =>
    (await git(['for-each-ref', '--format=%(refname)', `--contains=${commitId}`, prefix], { cwd: repoPath }))
      .split('\n')
      .filter(Boolean);
  const [mergeRequestRefs, branchRefs] = await Promise.all([
    refsContaining('refs/merge-requests/'),
    refsContaining('refs/heads/'),
  ]);
  const iids = mergeRequestRefs.flatMap((ref) => /^refs\/merge-requests\/(\d+)\/head$/.exec(ref)?.[1] ?? []);
  if (iids.length === 0) return [];
  const branchesWithCommit = new Set(branchRefs.map((ref) => ref.slice('refs/heads/'.length)));
  const query = mergeRequestListQuery(target, {
    state: 'all',
    iids: iids.map(Number),
    orderBy: undefined,
    sort: undefined,
  });
  const views = await listMergeRequestsAcross(deps, [target], viewer, query, 0, iids.length);
  const held: MergeRequestView[] = [];
  for (const view of views) {
    const { mr } = view;
    if (!mr.merge_commit_sha && mr.state !== 'merged') {
      if (!branchesWithCommit.has(mr.target_branch)) held.push(view);
      continue;
    }
    const base = await comparisonBase(deps, target, mr);
    if (!base || !(await isAncestor(repoPath, commitId, base))) held.push(view);
  }
  return held;
}
