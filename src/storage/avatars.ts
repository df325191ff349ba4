// Uploaded avatars on disk: <dataDir>/avatars/<user|project|group>/<id>/<file>, the file its row names
// (a new upload's earlier ones are removed once the row names it). Names are sanitized as every upload's are, so nothing written or
// served can leave its folder; what may be stored is decided by the service (images, size).
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
  await fsp.writeFile(temporary, data);
  await fsp.rename(temporary, path.join(dir, filename));
  return filename;
}

/** Removes the owner's other avatar files once its row names `keep`. */
export async function pruneAvatars(
  dataDir: string,
  owner: AvatarOwner,
  id: number,
  keep: string,
): Promise<void> {
  const dir = avatarDir(dataDir, owner, id);
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.filter((name) => name !== keep).map((name) => fsp.rm(path.join(dir, name), { force: true })),
  );
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
