// Who may do what with a project's wiki (GitLab 8.13's ProjectPolicy): read_wiki for everyone who reads
// the project, create_wiki (write pages, push to the wiki repository) for developers and up, admin_wiki
// (delete pages) for masters and up; all of them lost when the project's wiki is off. Archiving does not
// take create_wiki away in 8.13. Cloning the wiki repository is GitAccess's download_code check, as for
// the project's own repository.
import type { ProjectAccess } from './access.ts';
import { canDownloadCode } from './git-access.ts';
import { AccessLevel } from '../domain/types.ts';
import type { ProjectRecord } from '../db/types.ts';

const wikiOn = (record: ProjectRecord) => record.project.wiki_enabled === 1;

export function canReadWiki(access: ProjectAccess, record: ProjectRecord): boolean {
  return access.canRead && wikiOn(record);
}

export function canCreateWiki(access: ProjectAccess, record: ProjectRecord): boolean {
  return canReadWiki(access, record) && access.level >= AccessLevel.Developer;
}

export function canAdminWiki(access: ProjectAccess, record: ProjectRecord): boolean {
  return canReadWiki(access, record) && access.level >= AccessLevel.Master;
}

/** A clone or fetch of the wiki repository (a deploy key's own rule is checked by the caller). */
export function canDownloadWiki(access: ProjectAccess, record: ProjectRecord): boolean {
  return wikiOn(record) && canDownloadCode(access, record);
}
