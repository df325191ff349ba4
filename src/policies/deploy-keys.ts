// Which deploy keys a user may enable on a project they administer (GitLab's accessible_deploy_keys): the
// public ones, and those already enabled on a project the user is a member of. A key is never handed to
// someone merely because they guessed its id.
import { AccessLevel } from '../domain/types.ts';
import type { ProjectAccess } from './access.ts';
import type { KeyRow } from '../db/types.ts';

/** `accesses`: the user's access to each project the key is enabled on. */
export function canEnableDeployKey(key: KeyRow, accesses: ProjectAccess[]): boolean {
  return key.public === 1 || accesses.some((access) => access.level >= AccessLevel.Guest);
}

/** A deploy key reads the projects it is enabled on, and public ones; it never pushes (GitLab 8.13). */
export function canDeployKeyDownload(enabledOnProject: boolean, publicProject: boolean): boolean {
  return enabledOnProject || publicProject;
}
