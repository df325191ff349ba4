// The repositories of a backup, read live in git's own safe order, and the checksums a restore checks.
//
// A repository is pinned before any of it is written: HEAD and the refs are read into memory first, then
// every object file is opened (or, past a budget of open files, hard-linked aside) — git writes objects
// before the refs that name them, so each ref read has its objects on disk when they are pinned, and a
// pinned file keeps its bytes whatever git does to the path next (packs and loose objects are never
// written in place, only made whole under another name and renamed). A `gc` meanwhile may pack loose
// objects and delete them, or replace packs: loose directories are pinned before `objects/pack`, which
// is listed again until no new pack appears, so an object is either pinned loose or found in a pack
// written before its loose copy went. Then each ref's object is looked up among the pinned files (the
// loose names, the pack indexes); a pinning that misses one is dropped and made again, and only a
// complete one is written. No git process runs.
import fs from 'node:fs';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import {
  checksums,
  vanished,
  type ArchiveWriter,
  type ChecksumKind,
  type FileEntry,
} from './backup-archive.ts';

/** Open files one repository may hold while pinned; files past it are pinned by hard link. */
const OPEN_FILES = 256;

/** Names under objects/ that are git's work in progress, never a finished object: a push's quarantine, temporary files. */
const inProgress = (name: string) => name.startsWith('incoming-') || name.startsWith('tmp_');

type Item =
  | { kind: 'directory'; name: string; stat: fs.Stats }
  | { kind: 'bytes'; name: string; stat: fs.Stats; data: Buffer }
  | { kind: 'symlink'; name: string; stat: fs.Stats; target: string }
  | { kind: 'pinned'; name: string; fd?: number; linked?: string };

function readDirectory(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (vanished(error)) return [];
    throw error;
  }
}

function lstat(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false });
  } catch (error) {
    if (vanished(error)) return undefined;
    throw error;
  }
}

/** One attempt at pinning a repository: what it will write, the open files it holds. */
class Pinning {
  readonly items: Item[] = [];
  private open = 0;
  private links = 0;

  constructor(
    private readonly from: string,
    private readonly linkDir: string,
  ) {}

  /** The tree at `rel` (a file or a directory) read into memory: HEAD and the refs. */
  read(rel: string): void {
    const full = path.join(this.from, rel);
    const stat = lstat(full);
    if (!stat || rel.endsWith('.lock')) return;
    if (stat.isDirectory()) {
      this.items.push({ kind: 'directory', name: rel, stat });
      for (const entry of readDirectory(full)) this.read(`${rel}/${entry.name}`);
    } else if (stat.isSymbolicLink()) {
      this.items.push({ kind: 'symlink', name: rel, stat, target: fs.readlinkSync(full) });
    } else if (stat.isFile()) {
      try {
        this.items.push({ kind: 'bytes', name: rel, stat, data: fs.readFileSync(full) });
      } catch (error) {
        if (!vanished(error)) throw error;
      }
    }
  }

  /** The file at `rel`, held so its bytes stay whatever happens to the path; false when it is gone. */
  pin(rel: string): boolean {
    const full = path.join(this.from, rel);
    try {
      if (this.open < OPEN_FILES) {
        this.items.push({ kind: 'pinned', name: rel, fd: fs.openSync(full, 'r') });
        this.open++;
        return true;
      }
      fs.mkdirSync(this.linkDir, { recursive: true });
      const linked = path.join(this.linkDir, String(this.links++));
      try {
        fs.linkSync(full, linked);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM') throw error;
        fs.copyFileSync(full, linked);
      }
      this.items.push({ kind: 'pinned', name: rel, linked });
      return true;
    } catch (error) {
      if (vanished(error)) return false;
      throw error;
    }
  }

  /** The directory `rel` and the object files under it (loose objects, info), pinned. */
  pinTree(rel: string): void {
    const stat = lstat(path.join(this.from, rel));
    if (!stat?.isDirectory()) return;
    this.items.push({ kind: 'directory', name: rel, stat });
    for (const entry of readDirectory(path.join(this.from, rel))) {
      if (inProgress(entry.name) || entry.name.endsWith('.lock')) continue;
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) this.pinTree(child);
      else if (entry.isFile()) this.pin(child);
    }
  }

  /** Bytes of a pinned file (a pack index, to look objects up). */
  bytesOf(item: Item & { kind: 'pinned' }): Buffer {
    return item.fd === undefined ? fs.readFileSync(item.linked!) : readAll(item.fd);
  }

  release(): void {
    for (const item of this.items) {
      if (item.kind !== 'pinned') continue;
      if (item.fd !== undefined) fs.closeSync(item.fd);
      if (item.linked) fs.rmSync(item.linked, { force: true });
    }
    this.items.length = 0;
    this.open = 0;
  }
}

function readAll(fd: number): Buffer {
  const size = fs.fstatSync(fd).size;
  const data = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = fs.readSync(fd, data, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return data.subarray(0, got);
}

/** Whether a pack index (version 1 or 2) lists the object `id` (20 bytes). */
function packIndexHas(index: Buffer, id: Buffer): boolean {
  const v2 = index.length >= 8 && index.readUInt32BE(0) === 0xff744f63;
  if (v2 && index.readUInt32BE(4) !== 2) return false;
  const fanout = v2 ? 8 : 0;
  const names = fanout + 256 * 4;
  const stride = v2 ? 20 : 24;
  const skip = v2 ? 0 : 4;
  if (index.length < names) return false;
  let low = id[0] === 0 ? 0 : index.readUInt32BE(fanout + (id[0] - 1) * 4);
  let high = index.readUInt32BE(fanout + id[0] * 4);
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = names + middle * stride + skip;
    if (at + 20 > index.length) return false;
    const order = index.compare(id, 0, 20, at, at + 20);
    if (order === 0) return true;
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return false;
}

const OBJECT_ID = /^[0-9a-f]{40}$/;

/** The object ids the refs name: loose ref files and packed-refs lines (SHA-1 ones; others go unchecked). */
function refTips(items: Item[]): string[] {
  const tips: string[] = [];
  for (const item of items) {
    if (item.kind !== 'bytes') continue;
    if (item.name === 'packed-refs') {
      for (const line of item.data.toString('latin1').split('\n')) {
        const id = line.slice(0, 40);
        if (line[40] === ' ' && OBJECT_ID.test(id)) tips.push(id);
      }
    } else if (item.name.startsWith('refs/')) {
      const id = item.data.toString('latin1').trim();
      if (OBJECT_ID.test(id)) tips.push(id);
    }
  }
  return tips;
}

/** Whether every ref's object is among the pinned files (or may be in an alternate object store). */
function tipsPinned(pinning: Pinning, alternates: boolean): boolean {
  const tips = refTips(pinning.items);
  if (tips.length === 0 || alternates) return true;
  const names = new Map<string, Item & { kind: 'pinned' }>();
  for (const item of pinning.items) if (item.kind === 'pinned') names.set(item.name, item);
  let indexes: Buffer[] | undefined;
  for (const tip of tips) {
    if (names.has(`objects/${tip.slice(0, 2)}/${tip.slice(2)}`)) continue;
    indexes ??= [...names.values()]
      .filter((item) => /^objects\/pack\/[^/]+\.idx$/.test(item.name))
      .filter((item) => names.has(item.name.replace(/\.idx$/, '.pack')))
      .map((item) => pinning.bytesOf(item));
    const id = Buffer.from(tip, 'hex');
    if (!indexes.some((index) => packIndexHas(index, id))) return false;
  }
  return true;
}

/**
 * Writes the live bare repository `from` into the archive as `name` (see the top of this file); `scratch`
 * may hold hard links for a while. Answers the files written, or undefined when the repository is gone
 * (removed meanwhile).
 */
export async function archiveRepository(
  archive: ArchiveWriter,
  from: string,
  name: string,
  scratch: string,
): Promise<number | undefined> {
  for (let attempt = 1; ; attempt++) {
    const root = lstat(from);
    if (!root?.isDirectory() || !lstat(path.join(from, 'HEAD'))) return undefined;
    const pinning = new Pinning(from, path.join(scratch, 'pinned'));
    try {
      for (const rel of ['HEAD', 'packed-refs', 'refs']) pinning.read(rel);
      const objects = lstat(path.join(from, 'objects'));
      if (objects?.isDirectory()) {
        pinning.items.push({ kind: 'directory', name: 'objects', stat: objects });
        for (const entry of readDirectory(path.join(from, 'objects'))) {
          if (entry.name === 'pack' || inProgress(entry.name)) continue;
          if (entry.isDirectory()) pinning.pinTree(`objects/${entry.name}`);
          else if (entry.isFile()) pinning.pin(`objects/${entry.name}`);
        }
        const packDir = path.join(from, 'objects', 'pack');
        const pack = lstat(packDir);
        if (pack?.isDirectory()) {
          pinning.items.push({ kind: 'directory', name: 'objects/pack', stat: pack });
          const seen = new Set<string>();
          for (;;) {
            const fresh = readDirectory(packDir).filter(
              (entry) => entry.isFile() && !seen.has(entry.name) && !inProgress(entry.name),
            );
            if (fresh.length === 0) break;
            for (const entry of fresh) {
              seen.add(entry.name);
              if (!entry.name.endsWith('.lock')) pinning.pin(`objects/pack/${entry.name}`);
            }
          }
        }
      }
      const alternates = lstat(path.join(from, 'objects', 'info', 'alternates')) !== undefined;
      if (!tipsPinned(pinning, alternates)) {
        if (attempt === 3) throw new Error(`${from}: could not take a copy with every ref's commit in it`);
        continue;
      }

      // Complete: the repository's directory, its refs, its other files as they are now, its objects.
      await archive.directory(name, root);
      let files = 0;
      const [refs, pinned] = [
        pinning.items.filter((item) => !item.name.startsWith('objects')),
        pinning.items.filter((item) => item.name.startsWith('objects')),
      ];
      for (const item of refs) files += await writeItem(archive, `${name}/${item.name}`, item);
      for (const entry of readDirectory(from)) {
        if (['HEAD', 'packed-refs', 'refs', 'objects'].includes(entry.name)) continue;
        files += await archive.tree(path.join(from, entry.name), `${name}/${entry.name}`);
      }
      for (const item of pinned) files += await writeItem(archive, `${name}/${item.name}`, item);
      return files;
    } finally {
      pinning.release();
    }
  }
}

async function writeItem(archive: ArchiveWriter, name: string, item: Item): Promise<number> {
  switch (item.kind) {
    case 'directory':
      await archive.directory(name, item.stat);
      return 0;
    case 'symlink':
      await archive.symlink(name, item.target, item.stat);
      return 0;
    case 'bytes':
      await archive.buffer(name, item.data, item.stat);
      return 1;
    case 'pinned':
      if (item.fd !== undefined) {
        await archive.descriptor(name, item.fd, fs.fstatSync(item.fd));
        return 1;
      }
      return (await archive.file(item.linked!, name)) ? 1 : 0;
  }
}

/** Runs `work` over `items`, `limit` at a time (file system calls wait on the thread pool anyway). */
async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Every regular file under `root` with its size and checksum, by path relative to `root` (with `/`). */
export async function fileChecksums(root: string, kind: ChecksumKind): Promise<Record<string, FileEntry>> {
  const checksum = await checksums(kind);
  const result: Record<string, FileEntry> = {};
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readDirectory(dir)) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) found.push(full);
    }
  };
  walk(root);
  await inParallel(found, 8, async (full) => {
    const hash = checksum();
    let size = 0;
    for await (const chunk of createReadStream(full, { highWaterMark: 1 << 20 })) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    result[path.relative(root, full).split(path.sep).join('/')] = { size, [kind]: hash.digest() };
  });
  return result;
}
