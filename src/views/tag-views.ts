// Tags with their release notes: the list (by name, descending) and one tag; one for-each-ref, one
// cat-file and one indexed query each.
import type { Deps } from '../deps.ts';
import { findTag, listTags } from '../git/tags.ts';
import { projectRepositoryPath, repositoryExists } from '../git/repository.ts';
import { findRelease, listReleases } from '../db/repositories/releases.ts';
import { notFound } from '../errors.ts';
import { presentTag } from '../presenters/api-v3/tag.ts';
import type { ProjectRecord } from '../db/types.ts';

export async function projectTags(deps: Deps, record: ProjectRecord) {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  if (!(await repositoryExists(repoPath))) return [];
  const [tags, releases] = await Promise.all([
    listTags(repoPath),
    listReleases(deps.db.kysely, record.project.id),
  ]);
  const byTag = new Map(releases.map((release) => [release.tag, release]));
  return tags.map((tag) => presentTag(tag, byTag.get(tag.name)));
}

export async function projectTag(deps: Deps, record: ProjectRecord, name: string) {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const tag = (await repositoryExists(repoPath)) ? await findTag(repoPath, name) : undefined;
  if (!tag) throw notFound('Tag');
  return presentTag(tag, await findRelease(deps.db.kysely, record.project.id, name));
}
