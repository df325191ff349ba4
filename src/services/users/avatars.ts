// Setting and removing the uploaded avatar of a user, a project or a group, as GitLab's Avatarable did:
// images only (by extension: png, jpg, jpeg, gif, bmp, tiff, ico), at most 200 KB; otherwise 400 with
// the model's words (`only images allowed`, `is too big (should be at most 200 KB)`) and nothing kept.
// The row is what makes an avatar shown: a new file is written before the row names it (in one
// transaction that holds the row), and a replaced or removed file goes only once the change committed,
// so a failure on either side never leaves the row naming a file that is not there.
import path from 'node:path';
import type { Deps } from '../../deps.ts';
import { notFound, validationFailed } from '../../errors.ts';
import type { AvatarOwner } from '../../domain/paths.ts';
import { lockAvatarName, updateAvatarName } from '../../db/repositories/avatars.ts';
import { removeAvatar, storeAvatar } from '../../storage/avatars.ts';

export const AVATAR_MAX_BYTES = 200 * 1024;

const AVATAR_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico']);

/** A file part read into memory: at most AVATAR_MAX_BYTES + 1 bytes, `truncated` when there was more. */
export interface AvatarFile {
  filename: string;
  data: Buffer;
  truncated: boolean;
}

/** Why a file may not be an avatar (the `avatar` attribute's errors), empty when it may. */
function avatarErrors(file: AvatarFile): string[] {
  const errors: string[] = [];
  if (!AVATAR_EXTENSIONS.has(path.extname(file.filename).slice(1).toLowerCase()))
    errors.push('only images allowed');
  if (file.truncated || file.data.length > AVATAR_MAX_BYTES)
    errors.push('is too big (should be at most 200 KB)');
  return errors;
}

/** Refuses (400 `{"message":{"avatar":[…]}}`) a file that may not be an avatar. */
export function checkAvatar(file: AvatarFile): void {
  const errors = avatarErrors(file);
  if (errors.length > 0) throw validationFailed({ avatar: errors });
}

const OWNER_NAMES: Record<AvatarOwner, string> = { user: 'User', project: 'Project', group: 'Group' };

/** Stores the checked avatar of `owner` `id` and names it on its row; answers the stored name. */
export async function setAvatar(
  deps: Deps,
  owner: AvatarOwner,
  id: number,
  file: AvatarFile,
): Promise<string> {
  checkAvatar(file);
  const { dataDir } = deps.config;
  let previous: string | null | undefined;
  let filename: string | undefined;
  try {
    await deps.db.kysely.transaction().execute(async (trx) => {
      previous = await lockAvatarName(trx, deps.db.dialect, owner, id);
      // Deleted since it was loaded: nothing is written for it.
      if (previous === undefined) throw notFound(OWNER_NAMES[owner]);
      filename = await storeAvatar(dataDir, owner, id, file.filename, file.data);
      await updateAvatarName(trx, owner, id, filename, new Date().toISOString());
    });
  } catch (error) {
    // The row still names what it did: a new name's file goes (a same-named one was replaced whole,
    // and the row still names it).
    if (filename !== undefined && filename !== previous) await removeAvatar(dataDir, owner, id, filename);
    throw error;
  }
  if (previous && previous !== filename) await removeAvatar(dataDir, owner, id, previous);
  return filename!;
}

/** Removes the avatar of `owner` `id` (GitLab 15.4's blank `avatar`): the row first, then its file. */
export async function removeAvatarOf(deps: Deps, owner: AvatarOwner, id: number): Promise<void> {
  const previous = await deps.db.kysely.transaction().execute(async (trx) => {
    const name = await lockAvatarName(trx, deps.db.dialect, owner, id);
    if (name === undefined) throw notFound(OWNER_NAMES[owner]);
    if (name !== null) await updateAvatarName(trx, owner, id, null, new Date().toISOString());
    return name;
  });
  if (previous !== null) await removeAvatar(deps.config.dataDir, owner, id, previous);
}
