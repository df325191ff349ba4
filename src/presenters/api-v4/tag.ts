// v4's Tag entity (lib/api/entities/tag.rb): the annotation's id as `target`, the Commit entity, the
// release notes as TagRelease, `protected` (Labrador has no protected tags: false) and `created_at`
// (an annotated tag's date, null for a lightweight one).
import type { ProjectRecord } from '../../db/types.ts';
import type { TagView } from '../../views/tag-views.ts';
import { presentCommit } from './commit.ts';

export function presentTag({ tag, release }: TagView, record: ProjectRecord, baseUrl: string) {
  return {
    name: tag.name,
    message: tag.message,
    target: tag.targetId,
    commit: tag.commit ? presentCommit(tag.commit, record, baseUrl) : null,
    release: release ? { tag_name: release.tag, description: release.description } : null,
    protected: false,
    created_at: tag.createdAt,
  };
}
