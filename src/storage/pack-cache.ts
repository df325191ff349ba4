// Stored answers of upload-pack to full fetches (a clone: wants and no haves), so the next identical
// request streams a file instead of running git and compressing the same pack again: CI runners clone
// the same commit over and over. GitLab's Gitaly keeps such a cache for the same reason.
//
// An answer may be reused only where git would give an equivalent one. For a given request it depends on
// the objects the wants reach (immutable: an object id names its content), on which wants git accepts
// (those reachable from the repository's refs) and which tags it adds (include-tag), and on the
// configuration git reads. So the key covers the repository, every ref and its value, the configuration,
// the Git-Protocol value and the request's bytes: any ref change, even an unrelated one, makes a new key.
//
// Files live under <data dir>/cache/upload-pack/<pid>, one directory per server process, bounded in total
// size (oldest use evicted first); directories of processes that are gone are removed at start.
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { isFullFetchRequest } from '../git/protocol/pkt-line.ts';

/** Requests larger than this are not fetches worth keeping (they negotiate). */
export const CACHEABLE_REQUEST_MAX_BYTES = 64 * 1024;

interface Entry {
  file: string;
  bytes: number;
}

export class PackCache {
  /** Insertion order is use order: a hit moves its entry to the end, eviction takes from the front. */
  private readonly entries = new Map<string, Entry>();
  private totalBytes = 0;
  private sequence = 0;
  /** Copies being written or kept. */
  private readonly storing = new Set<Promise<unknown>>();
  /** Requests answered from the store since start. */
  hits = 0;

  private readonly dir: string;
  private prepared: Promise<boolean> | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly maxBytes: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.dir = path.join(cacheRoot(dataDir), String(process.pid));
  }

  /** False when the cache is switched off (size 0) or its directory cannot be made. */
  get enabled(): Promise<boolean> {
    if (this.maxBytes <= 0) return Promise.resolve(false);
    this.prepared ??= this.prepare().then(
      () => true,
      (error) => {
        this.log.warn({ err: error }, 'the upload-pack cache is off: its directory could not be made');
        return false;
      },
    );
    return this.prepared;
  }

  /** Makes this process's directory, after removing those of processes that are gone. */
  private async prepare(): Promise<void> {
    const root = cacheRoot(this.dataDir);
    await fsp.mkdir(root, { recursive: true });
    for (const name of await fsp.readdir(root)) {
      const pid = Number(name);
      if (Number.isInteger(pid) && pid !== process.pid && processIsAlive(pid)) continue;
      await fsp.rm(path.join(root, name), { recursive: true, force: true });
    }
    await fsp.mkdir(this.dir, { recursive: true });
  }

  /**
   * The key of a request, or null when its answer is not kept: only complete requests without "have"
   * lines (a clone, or a fetch into an empty repository) repeat byte for byte.
   */
  static keyOf(parts: { repoPath: string; refs: string; config: string; protocol: string }, body: Buffer) {
    if (body.length > CACHEABLE_REQUEST_MAX_BYTES || !isFullFetchRequest(body)) return null;
    const hash = crypto.createHash('sha256');
    for (const part of [parts.repoPath, parts.refs, parts.config, parts.protocol]) hash.update(`${part}\0`);
    return hash.update(body).digest('hex');
  }

  /** An open file with the stored answer, or null. The caller streams it and closes it. */
  async open(key: string): Promise<fsp.FileHandle | null> {
    const entry = this.entries.get(key);
    if (!entry) return null;
    try {
      const handle = await fsp.open(entry.file, 'r');
      this.hits++;
      this.entries.delete(key);
      this.entries.set(key, entry);
      return handle;
    } catch {
      // Evicted between the look-up and the open: answer from git.
      return null;
    }
  }

  /**
   * A sink for git's answer to the request `key` (pipe the answer into it beside the client): the copy
   * is kept once `succeeded` resolves true (git exited 0) and every byte reached the file; otherwise, or
   * when it grows past a quarter of the cache, it is dropped. The sink never fails the answer: a write
   * problem only drops the copy.
   */
  sink(key: string, succeeded: Promise<boolean>): Writable {
    const file = path.join(this.dir, `${key}.${++this.sequence}`);
    const writer = new EntryWriter(`${file}.tmp`, Math.max(1, Math.floor(this.maxBytes / 4)));
    const finished = new Promise<void>((resolve) => writer.on('close', resolve));
    const stored = Promise.all([succeeded, finished])
      .then(async ([ok]) => {
        if (!ok || !writer.complete || this.entries.has(key)) return fsp.rm(writer.file, { force: true });
        await fsp.rename(writer.file, file);
        this.entries.set(key, { file, bytes: writer.bytes });
        this.totalBytes += writer.bytes;
        await this.evict();
      })
      .catch((error) => {
        this.log.warn({ err: error }, 'keeping an upload-pack answer failed');
        return fsp.rm(writer.file, { force: true }).catch(() => {});
      });
    this.storing.add(stored);
    void stored.finally(() => this.storing.delete(stored));
    return writer;
  }

  private async evict(): Promise<void> {
    for (const [key, entry] of this.entries) {
      if (this.totalBytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.totalBytes -= entry.bytes;
      // A reader that opened the file keeps reading it after the unlink.
      await fsp.rm(entry.file, { force: true });
    }
  }

  /** Resolves once the copies started so far are kept or dropped. */
  async settled(): Promise<void> {
    while (this.storing.size > 0) await Promise.all([...this.storing]);
  }

  /** Removes this process's files (server stop). */
  async close(): Promise<void> {
    if (!this.prepared) return;
    await this.settled();
    this.entries.clear();
    this.totalBytes = 0;
    await fsp.rm(this.dir, { recursive: true, force: true });
  }
}

/** Writes what it is given to `file` until `limit` bytes; past that, or after a write error, it drops it. */
class EntryWriter extends Writable {
  bytes = 0;
  private dropped = false;
  private readonly handle: Promise<fsp.FileHandle | null>;

  constructor(
    readonly file: string,
    private readonly limit: number,
  ) {
    super();
    this.handle = fsp.open(file, 'wx').catch(() => {
      this.dropped = true;
      return null;
    });
  }

  /** True when every byte given was written. */
  get complete(): boolean {
    return !this.dropped && this.writableFinished;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.bytes += chunk.length;
    if (this.dropped || this.bytes > this.limit) {
      this.dropped = true;
      return callback();
    }
    this.handle
      .then((handle) => handle?.write(chunk))
      .catch(() => (this.dropped = true))
      .finally(callback);
  }

  override _final(callback: () => void): void {
    void this.handle
      .then((handle) => handle?.close())
      .catch(() => (this.dropped = true))
      .finally(callback);
  }
}

function cacheRoot(dataDir: string): string {
  return path.join(dataDir, 'cache', 'upload-pack');
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
