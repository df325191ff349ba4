// What a caller may do with a project's repository: download_code is
// reporter+ or anyone who can read a public/internal project; push_code is developer+ on a project that
// is not archived (archived projects refuse pushes in the pre-receive hook, with a readable reason).
import type { ProjectAccess } from './access.ts';
import { AccessLevel, Visibility } from '../domain/types.ts';
import type { ProjectRecord } from '../db/types.ts';
import type { PushRules } from './push-rules.ts';

export function canDownloadCode(access: ProjectAccess, record: ProjectRecord): boolean {
  if (!access.canRead) return false;
  return access.level >= AccessLevel.Reporter || record.project.visibility_level !== Visibility.Private;
}

export function canPushCode(access: ProjectAccess): boolean {
  return access.canRead && access.level >= AccessLevel.Developer;
}

/** The level the push rules see: administrators count as masters on every project. */
export function pushAccessLevel(access: ProjectAccess): number {
  return access.admin ? Math.max(access.level, AccessLevel.Master) : access.level;
}

/** push_code as the API checks it: developer+ on a project that is not archived (archived ones lose it). */
export function canWriteRepository(access: ProjectAccess, record: ProjectRecord): boolean {
  return canPushCode(access) && record.project.archived !== 1;
}

/**
 * Whether some ref update could be refused: masters and owners of an unarchived project without
 * protected branches pass every check, so their pushes skip the pre-receive hook.
 */
export function pushNeedsHook(rules: PushRules): boolean {
  return rules.archived || rules.protectedBranches.length > 0 || rules.accessLevel < AccessLevel.Master;
}
