// RepoTag (name, annotation message, tagged commit, release notes) and Release.
import type { Tag } from '../../git/tags.ts';
import type { ReleaseRow } from '../../db/types.ts';
import { presentCommitHash } from './commit.ts';

export function presentRelease(release: Pick<ReleaseRow, 'tag' | 'description'>) {
  return { tag_name: release.tag, description: release.description };
}

export function presentTag({ tag, release }: { tag: Tag; release: ReleaseRow | undefined }) {
  return {
    name: tag.name,
    message: tag.message,
    commit: tag.commit ? presentCommitHash(tag.commit) : null,
    release: release ? presentRelease(release) : null,
  };
}

/** DELETE …/repository/tags/:tag_name: the deleted tag's name. */
export function presentDeletedTag(name: string) {
  return { tag_name: name };
}
