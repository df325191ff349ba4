// The collaboration JSON shapes of GitLab 8.13's lib/api/entities.rb, keys in its order: Issue,
// Milestone, Label (no id in 8.13), Note (with the `upvote?`/`downvote?` keys), MRNote, CommitNote,
// AwardEmoji, and the raw issue row a DELETE answers with. Everything embedded arrives precomputed (views batch it).
import { presentUserBasic } from './user.ts';
import type {
  AwardEmojiRow,
  IssueRow,
  LabelRow,
  MilestoneRow,
  NoteRow,
  ProjectRecord,
  UserRow,
} from '../../db/types.ts';
import { issueWebUrl } from '../../domain/paths.ts';

export function presentMilestone(milestone: MilestoneRow) {
  return {
    id: milestone.id,
    iid: milestone.iid,
    project_id: milestone.project_id,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.created_at,
    updated_at: milestone.updated_at,
    due_date: milestone.due_date,
  };
}

/** An issue with what its entity embeds, as views/issue-views.ts batch-reads it for a page. */
export interface IssueView {
  issue: IssueRow;
  record: ProjectRecord;
  labels: string[];
  milestone: MilestoneRow | null;
  assignee: UserRow | null;
  author: UserRow;
  subscribed: boolean;
  userNotesCount: number;
  upvotes: number;
  downvotes: number;
}

export function presentIssue(view: IssueView, baseUrl: string) {
  const { issue } = view;
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.project_id,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    labels: view.labels,
    milestone: view.milestone ? presentMilestone(view.milestone) : null,
    assignee: view.assignee ? presentUserBasic(view.assignee, baseUrl) : null,
    author: presentUserBasic(view.author, baseUrl),
    subscribed: view.subscribed,
    user_notes_count: view.userNotesCount,
    upvotes: view.upvotes,
    downvotes: view.downvotes,
    due_date: issue.due_date,
    confidential: issue.confidential === 1,
    web_url: issueWebUrl(baseUrl, view.record, issue),
  };
}

/** The issue's columns as GitLab 8.13 had them (issues.* without the cached *_html columns). */
export function issueColumns(issue: IssueRow, deletedAt: string | null, time: (iso: string) => string) {
  return {
    id: issue.id,
    title: issue.title,
    assignee_id: issue.assignee_id,
    author_id: issue.author_id,
    project_id: issue.project_id,
    created_at: time(issue.created_at),
    updated_at: time(issue.updated_at),
    position: 0,
    branch_name: null,
    description: issue.description,
    milestone_id: issue.milestone_id,
    state: issue.state,
    iid: issue.iid,
    updated_by_id: issue.updated_by_id,
    confidential: issue.confidential === 1,
    deleted_at: deletedAt === null ? null : time(deletedAt),
    due_date: issue.due_date,
    moved_to_id: issue.moved_to_id,
    lock_version: 0,
  };
}

/** DELETE /projects/:id/issues/:issue_id: the destroyed row (GitLab soft-deleted it: deleted_at set). */
export function presentIssueRecord(issue: IssueRow, deletedAt: string) {
  return issueColumns(issue, deletedAt, (iso) => iso);
}

/** A label with its counts and the viewer's subscription, as views/label-views.ts reads it. */
export interface LabelView {
  label: LabelRow;
  openIssues: number;
  closedIssues: number;
  openMergeRequests: number;
  subscribed: boolean;
}

export function presentLabel(extras: LabelView) {
  const { label } = extras;
  return {
    name: label.title,
    color: label.color,
    description: label.description,
    open_issues_count: extras.openIssues,
    closed_issues_count: extras.closedIssues,
    open_merge_requests_count: extras.openMergeRequests,
    subscribed: extras.subscribed,
  };
}

/** DELETE /projects/:id/labels: the destroyed row. */
export function presentLabelRecord(label: LabelRow) {
  return {
    id: label.id,
    title: label.title,
    color: label.color,
    project_id: label.project_id,
    created_at: label.created_at,
    updated_at: label.updated_at,
    template: false,
    description: label.description,
    type: 'ProjectLabel',
    group_id: null,
  };
}

export function presentNote(note: NoteRow, author: UserRow, baseUrl: string) {
  return {
    id: note.id,
    body: note.note,
    attachment: note.attachment,
    author: presentUserBasic(author, baseUrl),
    created_at: note.created_at,
    updated_at: note.updated_at,
    system: note.system === 1,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    'upvote?': false,
    'downvote?': false,
  };
}

/** MRNote, what the deprecated merge request comments routes answer: the text and its author only. */
export function presentMergeRequestComment(note: Pick<NoteRow, 'note'>, author: UserRow, baseUrl: string) {
  return { note: note.note, author: presentUserBasic(author, baseUrl) };
}

/**
 * CommitNote: a comment on a commit; `path`, `line` and `line_type` name the diff line of a line comment
 * (null for a plain one).
 */
export function presentCommitNote(
  note: NoteRow,
  author: UserRow,
  baseUrl: string,
  position: { path: string; line: number; lineType: string } | undefined,
) {
  return {
    note: note.note,
    path: position?.path ?? null,
    line: position?.line ?? null,
    line_type: position?.lineType ?? null,
    author: presentUserBasic(author, baseUrl),
    created_at: note.created_at,
  };
}

export function presentAwardEmoji(award: AwardEmojiRow, user: UserRow, baseUrl: string) {
  return {
    id: award.id,
    name: award.name,
    user: presentUserBasic(user, baseUrl),
    created_at: award.created_at,
    updated_at: award.updated_at,
    awardable_id: award.awardable_id,
    awardable_type: award.awardable_type,
  };
}
