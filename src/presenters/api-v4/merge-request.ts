// v4's MergeRequest entities (lib/api/entities/merge_request_basic.rb and merge_request.rb, keys in
// GitLab's order) from the view v3's is drawn from: `opened` for a reopened MR, merged_by/merged_at and
// closed_by/closed_at from their events, draft beside work_in_progress, detailed_merge_status, the
// *_when_pipeline_succeeds names, references; the single MR adds subscribed, head_pipeline and diff_refs.
import type { MergeRequestView } from '../api-v3/merge-request.ts';
import { presentMilestone } from '../api-v3/issue.ts';
import { presentDiff } from './diff.ts';
import { presentUserBasic } from './user.ts';
import { presentPipelineBasic } from './pipeline.ts';
import { NO_TIME_STATS, references, taskCompletion } from './issue.ts';
import { isWorkInProgress } from '../../domain/titles.ts';
import { mergeRequestWebUrl } from '../../domain/paths.ts';
import type { MergeRequestClosings } from '../../views/issuable-closings.ts';
import type { FileDiff } from '../../git/diffs.ts';
import type { CiPipelineRow, MergeRequestDiffRow, MergeRequestRow } from '../../db/types.ts';

function mergeParams(mr: MergeRequestRow): Record<string, unknown> {
  return mr.merge_params ? (JSON.parse(mr.merge_params) as Record<string, unknown>) : {};
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false && String(value).trim() !== '';
}

/** GitLab's detailed_merge_status, from what Labrador knows of the MR. */
function detailedMergeStatus(mr: MergeRequestRow): string {
  if (mr.state !== 'opened' && mr.state !== 'reopened') return 'not_open';
  if (isWorkInProgress(mr.title)) return 'draft_status';
  if (mr.merge_status === 'unchecked') return 'unchecked';
  if (mr.merge_status === 'cannot_be_merged') return 'broken_status';
  return 'mergeable';
}

export function presentMergeRequestBasicV4(
  view: MergeRequestView,
  closings: MergeRequestClosings,
  baseUrl: string,
) {
  const { mr } = view;
  const user = (row: MergeRequestView['author']) => (row ? presentUserBasic(row, baseUrl) : null);
  const assignee = user(view.assignee);
  const merged = closings.merged.get(mr.id);
  const closed = closings.closed.get(mr.id);
  const mergedBy = merged?.by ? presentUserBasic(merged.by, baseUrl) : null;
  const draft = isWorkInProgress(mr.title);
  const params = mergeParams(mr);
  const refs = references(view.target, '!', mr.iid);
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.target_project_id,
    title: mr.title,
    description: mr.description,
    state: mr.state === 'reopened' ? 'opened' : mr.state,
    created_at: mr.created_at,
    updated_at: mr.updated_at,
    merged_by: mergedBy,
    merge_user: mergedBy,
    merged_at: merged?.at ?? null,
    closed_by: closed?.by ? presentUserBasic(closed.by, baseUrl) : null,
    closed_at: closed?.at ?? null,
    target_branch: mr.target_branch,
    source_branch: mr.source_branch,
    user_notes_count: view.userNotesCount,
    upvotes: view.upvotes,
    downvotes: view.downvotes,
    author: user(view.author),
    assignees: assignee ? [assignee] : [],
    assignee,
    reviewers: [],
    source_project_id: mr.source_project_id,
    target_project_id: mr.target_project_id,
    labels: view.labels,
    draft,
    work_in_progress: draft,
    milestone: view.milestone ? presentMilestone(view.milestone) : null,
    merge_when_pipeline_succeeds: mr.merge_when_build_succeeds === 1,
    merge_status: mr.merge_status,
    detailed_merge_status: detailedMergeStatus(mr),
    sha: mr.head_sha,
    merge_commit_sha: mr.merge_commit_sha,
    squash_commit_sha: mr.squash_commit_sha ?? null,
    discussion_locked: null,
    should_remove_source_branch: present(params.should_remove_source_branch),
    force_remove_source_branch: params.force_remove_source_branch === '1',
    reference: refs.short,
    references: refs,
    web_url: mergeRequestWebUrl(baseUrl, view.target, mr.iid),
    time_stats: NO_TIME_STATS,
    // No project squash option here (default_off): squash_on_merge? is the MR's own wish.
    squash: Number(mr.squash) === 1,
    squash_on_merge: Number(mr.squash) === 1,
    task_completion_status: taskCompletion(mr.description),
    has_conflicts: mr.merge_status === 'cannot_be_merged',
    blocking_discussions_resolved: true,
  };
}

/** What the single MR adds: the head pipeline, diff_refs of its newest version, merge_error. */
export interface MergeRequestDetail {
  headPipeline: CiPipelineRow | undefined;
  latestVersion: MergeRequestDiffRow | undefined;
  /** Whether the caller may merge it (user.can_merge). */
  canMerge: boolean;
}

export function presentMergeRequestV4(
  view: MergeRequestView,
  closings: MergeRequestClosings,
  detail: MergeRequestDetail,
  baseUrl: string,
) {
  const pipeline = detail.headPipeline
    ? presentPipelineBasic(detail.headPipeline, view.target, baseUrl)
    : null;
  const version = detail.latestVersion;
  return Object.assign(presentMergeRequestBasicV4(view, closings, baseUrl), {
    subscribed: view.subscribed,
    changes_count: version?.real_size ?? null,
    pipeline,
    head_pipeline: pipeline,
    diff_refs: version
      ? {
          base_sha: version.base_commit_sha,
          head_sha: version.head_commit_sha,
          start_sha: version.start_commit_sha,
        }
      : null,
    merge_error: view.mr.merge_error,
    user: { can_merge: detail.canMerge },
  });
}

export function presentMergeRequestChangesV4(
  view: MergeRequestView,
  closings: MergeRequestClosings,
  detail: MergeRequestDetail,
  baseUrl: string,
  diffs: FileDiff[],
) {
  return Object.assign(presentMergeRequestV4(view, closings, detail, baseUrl), {
    changes: diffs.map(presentDiff),
  });
}
