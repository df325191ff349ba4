// Who may do what with merge requests (GitLab 8.13's ProjectPolicy and IssuablePolicy): reading needs the
// repository (reporter+, or anyone who can read a public or internal project) with the feature on;
// creating and editing need developer+ on an unarchived project, or, for one MR, being its author or
// assignee; deleting needs owner abilities.
import { AccessLevel, Visibility } from '../domain/types.ts';
import type { ProjectAccess } from './access.ts';
import type { MergeRequestRow, ProjectRecord, UserRow } from '../db/types.ts';

export function canReadMergeRequests(access: ProjectAccess, record: ProjectRecord): boolean {
  if (!access.canRead || record.project.merge_requests_enabled !== 1) return false;
  return access.level >= AccessLevel.Reporter || record.project.visibility_level !== Visibility.Private;
}

export function canWriteMergeRequests(access: ProjectAccess, record: ProjectRecord): boolean {
  return (
    canReadMergeRequests(access, record) &&
    access.level >= AccessLevel.Developer &&
    record.project.archived !== 1
  );
}

export function canUpdateMergeRequest(
  access: ProjectAccess,
  record: ProjectRecord,
  viewer: UserRow,
  mr: MergeRequestRow,
): boolean {
  return (
    canWriteMergeRequests(access, record) ||
    (record.project.archived !== 1 && (viewer.id === mr.author_id || viewer.id === mr.assignee_id))
  );
}

export function canDestroyMergeRequest(access: ProjectAccess): boolean {
  return access.level >= AccessLevel.Owner;
}
