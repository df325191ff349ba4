// The files of a backup: staged by hard link (no bytes copied; the same file system as the data dir), so
// what the archive holds is what was there when each file was staged, whatever the server does next; and
// checked by SHA-256 on restore.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { git } from '../git/exec.ts';

export interface FileEntry {
  size: number;
  sha256: string;
}

/**
 * Puts `from` at `to`: a hard link (a copy across file systems), or a copy when `copy` (files that are
 * appended to in place, like build traces, must not change under the checksum). False when it vanished.
 */
async function stageFile(from: string, to: string, copy: boolean): Promise<boolean> {
  try {
    if (copy) await fs.copyFile(from, to);
    else {
      try {
        await fs.link(from, to);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM') throw error;
        await fs.copyFile(from, to);
      }
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

async function entries(dir: string) {
  try {
    return await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

export interface StageOptions {
  /** Names left out (at any depth). */
  skip?: (name: string) => boolean;
  copy?: boolean;
}

/** Stages the tree at `from` into `to`, skipping what vanishes meanwhile; answers the files staged. */
export async function stageTree(from: string, to: string, options: StageOptions = {}): Promise<number> {
  const found = await entries(from);
  if (found.length === 0) {
    try {
      if (!(await fs.stat(from)).isDirectory())
        return (await stageFile(from, to, options.copy ?? false)) ? 1 : 0;
    } catch {
      return 0;
    }
  }
  await fs.mkdir(to, { recursive: true });
  let files = 0;
  for (const entry of found) {
    if (options.skip?.(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) files += await stageTree(source, target, options);
    else if (entry.isSymbolicLink()) {
      await fs.symlink(await fs.readlink(source), target).catch(() => {});
    } else if (entry.isFile() && (await stageFile(source, target, options.copy ?? false))) files++;
  }
  return files;
}

/**
 * Stages a live bare repository in git's own safe order: HEAD and the refs first, then the objects —
 * git writes objects before the refs that name them, so every ref staged has its objects on disk when
 * they are staged afterwards. A `gc` meanwhile may pack loose objects and delete them, or replace packs:
 * loose directories are staged before `objects/pack`, which is listed again until no new pack appears,
 * so an object is either staged loose or found in a pack written before its loose copy went. Finally
 * each ref tip is looked up in the staged copy; a copy that misses one is made again.
 */
export async function stageRepository(from: string, to: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    await fs.rm(to, { recursive: true, force: true });
    await fs.mkdir(to, { recursive: true });
    let files = 0;
    for (const name of ['HEAD', 'packed-refs', 'refs']) {
      files += await stageTree(path.join(from, name), path.join(to, name));
    }
    for (const entry of await entries(from)) {
      if (['HEAD', 'packed-refs', 'refs', 'objects'].includes(entry.name)) continue;
      files += await stageTree(path.join(from, entry.name), path.join(to, entry.name));
    }
    const objects = path.join(from, 'objects');
    await fs.mkdir(path.join(to, 'objects', 'pack'), { recursive: true });
    for (const entry of await entries(objects)) {
      if (entry.name === 'pack') continue;
      files += await stageTree(path.join(objects, entry.name), path.join(to, 'objects', entry.name));
    }
    const staged = new Set<string>();
    for (;;) {
      const packs = (await entries(path.join(objects, 'pack'))).filter(
        (e) => e.isFile() && !staged.has(e.name),
      );
      if (packs.length === 0) break;
      for (const pack of packs) {
        staged.add(pack.name);
        if (
          await stageFile(
            path.join(objects, 'pack', pack.name),
            path.join(to, 'objects', 'pack', pack.name),
            false,
          )
        )
          files++;
      }
    }
    if (await tipsPresent(to)) return files;
    if (attempt === 3) throw new Error(`${from}: could not take a copy with every ref's commit in it`);
  }
}

/** Whether every ref's object is in the repository (for-each-ref fails on a missing one): one spawn. */
async function tipsPresent(repo: string): Promise<boolean> {
  return git(['for-each-ref', '--format=%(objecttype)'], { cwd: repo }).then(
    () => true,
    () => false,
  );
}

/** Runs `work` over `items`, `limit` at a time (file system calls wait on the thread pool anyway). */
export async function inParallel<T>(
  items: T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Every regular file under `root` (only under its subdirectories `within`, when given) with its size and
 * SHA-256, by path relative to `root` (with `/`).
 */
export async function fileChecksums(root: string, within?: string[]): Promise<Record<string, FileEntry>> {
  const result: Record<string, FileEntry> = {};
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await entries(dir)) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) found.push(full);
    }
  };
  if (within) for (const dir of within) await walk(path.join(root, dir));
  else await walk(root);
  await inParallel(found, 8, async (full) => {
    const hash = crypto.createHash('sha256');
    let size = 0;
    for await (const chunk of createReadStream(full, { highWaterMark: 1 << 20 })) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    result[path.relative(root, full).split(path.sep).join('/')] = { size, sha256: hash.digest('hex') };
  });
  return result;
}
