// Tags and their release notes through the API (GitLab 8.13's CreateTagService, DeleteTagService,
// CreateReleaseService, UpdateReleaseService). Creating and deleting a tag is a push of one ref (push
// rules, pending push, compare-and-swap, processing: tag push events and hooks); an annotated tag's object
// is written first and stays unreferenced if the ref cannot move. Deleting a tag drops its release notes.
import type { Deps } from '../../deps.ts';
import { now } from '../../lib/clock.ts';
import { deleteRelease, insertRelease, updateReleaseDescription } from '../../db/repositories/releases.ts';
import { isValidRefName } from '../../git/ref-writes.ts';
import { resolveCommit } from '../../git/revisions.ts';
import { findTag, writeTagObject, type Tag } from '../../git/tags.ts';
import { apiError } from '../../errors.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { updateRefAsPush } from '../push/ref-updates.ts';
import { userSignature, type Pusher } from '../push/push-setup.ts';
import type { ReleaseRow } from '../../db/types.ts';
import { BLANK_SHA } from '../../domain/types.ts';

export interface NewTag {
  name: string | undefined;
  ref: string | undefined;
  /** Makes an annotated tag (stripped, as GitLab did), even when empty. */
  message: string | undefined;
  releaseDescription: string | undefined;
}

export async function createTag(
  deps: Deps,
  pusher: Pusher,
  input: NewTag,
): Promise<{ tag: Tag; release: ReleaseRow | undefined }> {
  const { name, ref } = input;
  if (name === undefined || !(await isValidRefName(name))) throw apiError(400, 'Tag name invalid');
  const repoPath = projectRepositoryPath(deps.config.dataDir, pusher);
  const target = ref === undefined ? undefined : await resolveCommit(repoPath, ref);
  if (!target) throw apiError(400, `Target ${ref ?? ''} is invalid`);
  const object =
    input.message === undefined
      ? target
      : await writeTagObject(repoPath, {
          name,
          commit: target,
          tagger: userSignature(pusher),
          message: input.message.trim(),
        });
  const change = { before: BLANK_SHA, after: object, ref: `refs/tags/${name}` };
  await updateRefAsPush(deps, pusher, change, `Tag ${name} already exists`);
  const tag = await findTag(repoPath, name);
  if (!tag) throw apiError(400, `Target ${ref} is invalid`);
  let release: ReleaseRow | undefined;
  if (input.releaseDescription !== undefined) {
    release = await createRelease(deps, pusher, name, input.releaseDescription);
  }
  return { tag, release };
}

export async function deleteTag(deps: Deps, pusher: Pusher, name: string): Promise<void> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, pusher);
  const tag = await findTag(repoPath, name);
  if (!tag) throw apiError(404, 'No such tag');
  const change = { before: tag.targetId, after: BLANK_SHA, ref: `refs/tags/${name}` };
  await updateRefAsPush(deps, pusher, change, 'Failed to remove tag');
  await deleteRelease(deps.db.kysely, pusher.project.id, name);
}

async function requireTag(deps: Deps, pusher: Pusher, tagName: string): Promise<void> {
  if (!(await findTag(projectRepositoryPath(deps.config.dataDir, pusher), tagName)))
    throw apiError(404, 'Tag does not exist');
}

export async function createRelease(
  deps: Deps,
  pusher: Pusher,
  tagName: string,
  description: string,
): Promise<ReleaseRow> {
  await requireTag(deps, pusher, tagName);
  const at = now();
  const release = await insertRelease(deps.db.kysely, {
    project_id: pusher.project.id,
    tag: tagName,
    description,
    created_at: at,
    updated_at: at,
  });
  if (!release) throw apiError(409, 'Release already exists');
  return release;
}

export async function updateRelease(
  deps: Deps,
  pusher: Pusher,
  tagName: string,
  description: string,
): Promise<ReleaseRow> {
  await requireTag(deps, pusher, tagName);
  const release = await updateReleaseDescription(
    deps.db.kysely,
    pusher.project.id,
    tagName,
    description,
    now(),
  );
  if (!release) throw apiError(404, 'Release does not exist');
  return release;
}
