// Tags with their release notes: the list (by name, descending) and one tag; one for-each-ref, one
// cat-file and one indexed query each. View models ({tag, release}) for v3's RepoTag and v4's Tag alike.
import type { Deps } from '../deps.ts';
import { findTag, listTags, type Tag } from '../git/tags.ts';
import { projectRepositoryPath, repositoryExists } from '../git/repository.ts';
import { findRelease, listReleases } from '../db/repositories/releases.ts';
import { notFound } from '../errors.ts';
import { presentTag } from '../presenters/api-v3/tag.ts';
import type { ProjectRecord, ReleaseRow } from '../db/types.ts';

export interface TagView {
  tag: Tag;
  release: ReleaseRow | undefined;
}

export async function listTagViews(deps: Deps, record: ProjectRecord): Promise<TagView[]> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  if (!(await repositoryExists(repoPath))) return [];
  const [tags, releases] = await Promise.all([
    listTags(repoPath),
    listReleases(deps.db.kysely, record.project.id),
  ]);
  const byTag = new Map(releases.map((release) => [release.tag, release]));
  return tags.map((tag) => ({ tag, release: byTag.get(tag.name) }));
}

/** One tag by its exact name; 404 `Tag Not Found` when there is none. */
export async function loadTagViewOr404(deps: Deps, record: ProjectRecord, name: string): Promise<TagView> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const tag = (await repositoryExists(repoPath)) ? await findTag(repoPath, name) : undefined;
  if (!tag) throw notFound('Tag');
  return { tag, release: await findRelease(deps.db.kysely, record.project.id, name) };
}

/** Every tag in v3's RepoTag shape, as the tags page still reads them. */
export async function projectTags(deps: Deps, record: ProjectRecord) {
  return (await listTagViews(deps, record)).map(presentTag);
}
