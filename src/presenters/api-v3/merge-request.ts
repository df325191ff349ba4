// Merge requests as GitLab 8.13 showed them: the MergeRequest entity (lib/api/entities.rb, key order
// kept), MergeRequestChanges, the raw row of a DELETE, and the merge request hook body
// (Issuable#to_hook_data + MergeRequest#hook_attrs). `subscribed` without a subscription row is 8.13's
// default: whether the caller takes part (author, assignee or commenter).
import { presentUserBasic } from './user.ts';
import { presentRepoDiff } from './diff.ts';
import { presentRepoCommit } from './commit.ts';
import { presentMilestone } from './issue.ts';
import type { Commit } from '../../git/commits.ts';
import type { FileDiff } from '../../git/diffs.ts';
import type {
  MergeRequestDiffRow,
  MergeRequestRow,
  MilestoneRow,
  ProjectRecord,
  UserRow,
} from '../../db/types.ts';
import { isWorkInProgress } from '../../domain/titles.ts';
import { mergeRequestWebUrl } from '../../domain/paths.ts';

export interface MergeRequestView {
  mr: MergeRequestRow;
  /** The target project (the API's project_id). */
  target: ProjectRecord;
  author: UserRow | undefined;
  assignee: UserRow | undefined;
  upvotes: number;
  downvotes: number;
  userNotesCount: number;
  /** Label titles, A→Z. */
  labels: string[];
  milestone: MilestoneRow | null;
  /** The viewer's choice, else whether the viewer takes part. */
  subscribed: boolean;
}

function mergeParams(mr: MergeRequestRow): Record<string, unknown> {
  return mr.merge_params ? (JSON.parse(mr.merge_params) as Record<string, unknown>) : {};
}

/** `merge_params['should_remove_source_branch'].present?`: any non-blank value, even "false". */
function shouldRemoveSourceBranch(mr: MergeRequestRow): boolean {
  const value = mergeParams(mr).should_remove_source_branch;
  return value !== undefined && value !== null && value !== false && String(value).trim() !== '';
}

export function presentMergeRequest(view: MergeRequestView, baseUrl: string) {
  const { mr } = view;
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.target_project_id,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    upvotes: view.upvotes,
    downvotes: view.downvotes,
    author: view.author ? presentUserBasic(view.author, baseUrl) : null,
    assignee: view.assignee ? presentUserBasic(view.assignee, baseUrl) : null,
    source_project_id: mr.source_project_id,
    target_project_id: mr.target_project_id,
    labels: view.labels,
    work_in_progress: isWorkInProgress(mr.title),
    milestone: view.milestone ? presentMilestone(view.milestone) : null,
    merge_when_build_succeeds: mr.merge_when_build_succeeds === 1,
    merge_status: mr.merge_status,
    sha: mr.head_sha,
    merge_commit_sha: mr.merge_commit_sha,
    subscribed: view.subscribed,
    user_notes_count: view.userNotesCount,
    should_remove_source_branch: shouldRemoveSourceBranch(mr),
    force_remove_source_branch: mergeParams(mr).force_remove_source_branch === '1',
    web_url: mergeRequestWebUrl(baseUrl, view.target, mr.iid),
  };
}

export function presentMergeRequestChanges(view: MergeRequestView, baseUrl: string, diffs: FileDiff[]) {
  return Object.assign(presentMergeRequest(view, baseUrl), { changes: diffs.map(presentRepoDiff) });
}

/** The row's columns (serializable_hash), as a DELETE answered. */
export function presentMergeRequestRow(mr: MergeRequestRow) {
  return {
    id: mr.id,
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    source_project_id: mr.source_project_id,
    author_id: mr.author_id,
    assignee_id: mr.assignee_id,
    title: mr.title,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    milestone_id: mr.milestone_id,
    state: mr.state,
    merge_status: mr.merge_status,
    target_project_id: mr.target_project_id,
    iid: mr.iid,
    description: mr.description,
    position: 0,
    locked_at: mr.locked_at,
    updated_by_id: mr.updated_by_id,
    merge_error: mr.merge_error,
    merge_params: mergeParams(mr),
    merge_when_build_succeeds: mr.merge_when_build_succeeds === 1,
    merge_user_id: mr.merge_user_id,
    merge_commit_sha: mr.merge_commit_sha,
    deleted_at: mr.deleted_at,
    in_progress_merge_commit_sha: mr.in_progress_merge_commit_sha,
    lock_version: mr.lock_version,
  };
}

/** Entities::MergeRequestDiff: one version of an MR. */
export function presentMergeRequestDiff(version: MergeRequestDiffRow) {
  return {
    id: version.id,
    head_commit_sha: version.head_commit_sha,
    base_commit_sha: version.base_commit_sha,
    start_commit_sha: version.start_commit_sha,
    created_at: version.created_at,
    merge_request_id: version.merge_request_id,
    state: version.state,
    real_size: version.real_size,
  };
}

/** Entities::MergeRequestDiffFull: the version with its commits (newest first) and its diffs. */
export function presentMergeRequestDiffFull(
  version: MergeRequestDiffRow,
  commits: Commit[],
  diffs: FileDiff[],
) {
  return Object.assign(presentMergeRequestDiff(version), {
    commits: commits.map(presentRepoCommit),
    diffs: diffs.map(presentRepoDiff),
  });
}
