// Uploaded avatars on disk: <dataDir>/avatars/<user|project|group>/<id>/<file>, the file its row names.
// A replaced or removed avatar's file goes once the row no longer names it, an owner's folder once its
// row is deleted (GitLab's CarrierWave did both). Names are sanitized as every upload's are, so nothing
// written or served can leave its folder; what may be stored is decided by the service (images, size).
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AvatarOwner } from '../domain/paths.ts';
import { sanitizeFilename } from './uploads.ts';

function avatarDir(dataDir: string, owner: AvatarOwner, id: number): string {
  return path.join(dataDir, 'avatars', owner, String(id));
}

/** Writes the avatar beside any earlier one (a same-named one is replaced whole) and answers its name. */
export async function storeAvatar(
  dataDir: string,
  owner: AvatarOwner,
  id: number,
  originalName: string,
  data: Buffer,
): Promise<string> {
  const filename = sanitizeFilename(originalName);
  const dir = avatarDir(dataDir, owner, id);
  await fsp.mkdir(dir, { recursive: true });
  // Written aside, then renamed in: a reader never sees a half-written avatar.
  const temporary = path.join(dir, `.${filename}.${process.pid}-${Date.now()}`);
  try {
    await fsp.writeFile(temporary, data);
    await fsp.rename(temporary, path.join(dir, filename));
  } catch (error) {
    await fsp.rm(temporary, { force: true });
    throw error;
  }
  return filename;
}

/** Removes one stored avatar file of the owner (none there is fine). */
export async function removeAvatar(
  dataDir: string,
  owner: AvatarOwner,
  id: number,
  filename: string,
): Promise<void> {
  if (filename !== sanitizeFilename(filename)) return;
  await fsp.rm(path.join(avatarDir(dataDir, owner, id), filename), { force: true });
}

/** Removes the folder of a deleted owner's avatars, whatever it holds. */
export async function removeAvatars(dataDir: string, owner: AvatarOwner, id: number): Promise<void> {
  await fsp.rm(avatarDir(dataDir, owner, id), { recursive: true, force: true });
}

/** The stored avatar file for its URL's name, or undefined (unsanitary name, none stored). */
export async function findAvatar(
  dataDir: string,
  owner: AvatarOwner,
  id: number,
  filename: string,
): Promise<{ path: string; size: number; mtime: Date } | undefined> {
  if (filename !== sanitizeFilename(filename)) return undefined;
  const file = path.join(avatarDir(dataDir, owner, id), filename);
  try {
    const stat = await fsp.stat(file);
    return stat.isFile() ? { path: file, size: stat.size, mtime: stat.mtime } : undefined;
  } catch {
    return undefined;
  }
}
