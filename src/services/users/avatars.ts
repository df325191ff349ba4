// Setting an uploaded avatar of a user, a project or a group, as GitLab's Avatarable did: images only
// (by extension: png, jpg, jpeg, gif, bmp, tiff, ico), at most 200 KB; otherwise 400 with the model's
// words (`only images allowed`, `is too big (should be at most 200 KB)`) and nothing kept. The file is
// written first, then the row names it in one statement; the row is what makes the avatar shown.
import path from 'node:path';
import type { Deps } from '../../deps.ts';
import { validationFailed } from '../../errors.ts';
import type { AvatarOwner } from '../../domain/paths.ts';
import { updateUser } from '../../db/repositories/users.ts';
import { updateProject } from '../../db/repositories/projects.ts';
import { updateNamespace } from '../../db/repositories/namespaces.ts';
import { pruneAvatars, storeAvatar } from '../../storage/avatars.ts';

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

/** Stores the checked avatar of `owner` `id` and names it on its row; answers the stored name. */
export async function setAvatar(
  deps: Deps,
  owner: AvatarOwner,
  id: number,
  file: AvatarFile,
): Promise<string> {
  checkAvatar(file);
  const filename = await storeAvatar(deps.config.dataDir, owner, id, file.filename, file.data);
  const at = new Date().toISOString();
  const db = deps.db.kysely;
  if (owner === 'user') await updateUser(db, id, { avatar: filename, updated_at: at });
  else if (owner === 'project') await updateProject(db, id, { avatar: filename });
  else await updateNamespace(db, id, { avatar: filename, updated_at: at });
  await pruneAvatars(deps.config.dataDir, owner, id, filename);
  return filename;
}
