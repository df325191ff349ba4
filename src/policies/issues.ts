// Who may do what with issues, labels, milestones and notes (GitLab 8.13's ProjectPolicy, IssuePolicy and
// NotePolicy with the access checks of the last 8.13 release): reading a project's issues needs the issues
// feature; a confidential issue is visible only to administrators, reporters and up, its author and its
// assignee; authors and assignees may edit their own issues whatever their role.
import { AccessLevel } from '../domain/types.ts';
import type { ProjectAccess } from './access.ts';
import type { IssueRow, NoteRow, ProjectRecord, UserRow } from '../db/types.ts';

/** read_issue on the project: the caller reads it and its issues feature is on. */
export const canReadIssues = (access: ProjectAccess, record: ProjectRecord): boolean =>
  access.canRead && record.project.issues_enabled === 1;

/** Every confidential issue of the project is visible (read_issue on confidential issues). */
export const canReadConfidentialIssues = (access: ProjectAccess): boolean =>
  access.admin || access.level >= AccessLevel.Reporter;

export function canReadIssue(
  viewer: UserRow | null,
  access: ProjectAccess,
  record: ProjectRecord,
  issue: IssueRow,
): boolean {
  if (!canReadIssues(access, record)) return false;
  if (issue.confidential !== 1 || canReadConfidentialIssues(access)) return true;
  return viewer !== null && (issue.author_id === viewer.id || issue.assignee_id === viewer.id);
}

/** update_issue: reporters and up, or the issue's author or assignee. */
export function canUpdateIssue(
  viewer: UserRow,
  access: ProjectAccess,
  record: ProjectRecord,
  issue: IssueRow,
): boolean {
  if (!canReadIssue(viewer, access, record, issue)) return false;
  return (
    access.level >= AccessLevel.Reporter || issue.author_id === viewer.id || issue.assignee_id === viewer.id
  );
}

/** admin_issue: set assignee, milestone, labels and due date; move. Reporters and up. */
export const canAdminIssues = (access: ProjectAccess, record: ProjectRecord): boolean =>
  canReadIssues(access, record) && access.level >= AccessLevel.Reporter;

/** destroy_issue: owners and administrators only (masters may not). */
export const canDestroyIssue = (access: ProjectAccess): boolean => access.level >= AccessLevel.Owner;

/** Setting created_at / updated_at by hand: administrators and project owners. */
export const canSetIssueTimes = (access: ProjectAccess): boolean =>
  access.admin || access.level >= AccessLevel.Owner;

/** admin_label: reporters and up, while issues (or merge requests) are on. */
export const canAdminLabels = (access: ProjectAccess, record: ProjectRecord): boolean =>
  access.level >= AccessLevel.Reporter &&
  (record.project.issues_enabled === 1 || record.project.merge_requests_enabled === 1);

/** read_label / read_milestone: removed only when both issues and merge requests are off. */
export const canReadMilestones = (access: ProjectAccess, record: ProjectRecord): boolean =>
  access.canRead && (record.project.issues_enabled === 1 || record.project.merge_requests_enabled === 1);

/** admin_milestone: masters and up. */
export const canAdminMilestones = (access: ProjectAccess, record: ProjectRecord): boolean =>
  canReadMilestones(access, record) && access.level >= AccessLevel.Master;

/** admin_note: the note's author, or masters and up. */
export const canAdminNote = (viewer: UserRow, access: ProjectAccess, note: NoteRow): boolean =>
  note.author_id === viewer.id || access.level >= AccessLevel.Master;

/** read_board / read_list: whoever reads the project (8.13 did not tie boards to the issues feature). */
export const canReadBoards = (access: ProjectAccess): boolean => access.canRead;

/** admin_list (and v4's admin_issue_board): add, move and delete lists, create and edit boards. Reporters and up. */
export const canAdminBoardLists = (access: ProjectAccess): boolean =>
  access.canRead && access.level >= AccessLevel.Reporter;
