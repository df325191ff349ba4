// The archive of a backup, written as one stream: each file is read once, straight from where it lives,
// into the tar (headers encoded by node-tar's Header and Pax, the implementation npm itself uses) while
// its checksum is computed on the same bytes, so the manifest's checksums are those of what the archive
// holds. A file is taken at the length it has when opened: one appended to meanwhile (a running build's
// trace) is cut there, one cut shorter meanwhile is filled with zeros, as written and as hashed.
//
// The backup is a command of its own process, not the server's: reads are synchronous (no trip through
// the thread pool per file), into buffers reused for the whole archive (no garbage to collect); a worker
// thread hashes and writes them meanwhile (WRITER below), so reading overlaps with hashing and writing.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { Header, Pax } from 'tar';
import xxhash, { type XXHashAPI } from 'xxhash-wasm';

/**
 * The checksum of each file in the manifest: xxHash64 since format 2, SHA-256 in format 1. A checksum
 * here finds damage (a bad disk, a cut copy), not tampering — whoever can change an archive can change
 * its manifest too — so it need not be cryptographic; SHA-256 ran at 1.7 GB/s on the machine measured
 * and took over half a backup's CPU, xxHash64 (WebAssembly) runs at 11 GB/s.
 */
export type ChecksumKind = 'xxh64' | 'sha256';

/** What this Labrador writes. */
export const CHECKSUM: ChecksumKind = 'xxh64';

export type FileEntry = { size: number } & { [kind in ChecksumKind]?: string };

export interface Checksum {
  update(bytes: Uint8Array): void;
  /** The checksum in hex; the hash is used up. */
  digest(): string;
}

let xxhashApi: Promise<XXHashAPI> | undefined;

/** Makes checksums of `kind`, each for one file; any number may be under way at once. */
export async function checksums(kind: ChecksumKind): Promise<() => Checksum> {
  if (kind === 'sha256') {
    return () => {
      const hash = crypto.createHash('sha256');
      return { update: (bytes) => hash.update(bytes), digest: () => hash.digest('hex') };
    };
  }
  const api = await (xxhashApi ??= xxhash());
  return () => {
    const hash = api.create64();
    return {
      update: (bytes) => hash.update(bytes),
      digest: () => hash.digest().toString(16).padStart(16, '0'),
    };
  };
}

const BLOCK = 512;
/** The size of each buffer handed between the threads (few messages: each one costs). */
const BATCH = 512 << 10;
/**
 * The size of each write, small on purpose: on the machine measured, 1 GB written in 64 KiB writes took
 * 1 s, in 1 MiB writes 5 s, in 4 MiB writes 8 s.
 */
const WRITE = 64 << 10;
const ZEROS = Buffer.alloc(2 * BLOCK);

const padded = (size: number) => Math.ceil(size / BLOCK) * BLOCK;

/** Whether a file system error says the path is not there (any more). */
export function vanished(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export interface TreeOptions {
  /** Names left out (at any depth). */
  skip?: (name: string) => boolean;
}

/**
 * The archive's other half, in a worker thread: hashes each file's bytes (xxHash64) and writes the
 * archive (through gzip when asked) while the backup's own thread reads the next files. The buffers are
 * views of memory both threads share: a message names a slot and which of its bytes are which file's
 * (`ops`: [start, end] hashes those bytes into the file under way, [name, size] completes it), nothing
 * is copied. Plain JavaScript run by `eval`, so it is the same in the built bundle and from the sources.
 */
const WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const zlib = require('node:zlib');
const xxhash = require(workerData.xxhash)();
const slots = [];
for (let i = 0; i < workerData.buffers; i++)
  slots.push(Buffer.from(workerData.shared, i * workerData.batch, workerData.batch));
const checksums = {};
let api, hash, fd, gzip, written;
const fail = (error) => parentPort.postMessage({ error: String((error && error.stack) || error) });
if (workerData.gzip) {
  gzip = zlib.createGzip();
  const out = fs.createWriteStream(workerData.file);
  gzip.pipe(out);
  gzip.on('error', fail);
  out.on('error', fail);
  written = new Promise((resolve) => out.on('close', resolve));
} else fd = fs.openSync(workerData.file, 'w');
async function handle(message) {
  if (message.slot !== undefined) {
    const bytes = slots[message.slot].subarray(0, message.length);
    api ??= await xxhash;
    for (const [a, b] of message.ops) {
      hash ??= api.create64();
      if (typeof a === 'number') hash.update(bytes.subarray(a, b));
      else {
        checksums[a] = { size: b, xxh64: hash.digest().toString(16).padStart(16, '0') };
        hash = undefined;
      }
    }
    if (fd !== undefined) {
      for (let at = 0; at < bytes.length; )
        at += fs.writeSync(fd, bytes, at, Math.min(bytes.length - at, workerData.write));
    } else if (!gzip.write(Buffer.from(bytes))) await new Promise((resolve) => gzip.once('drain', resolve));
    Atomics.add(workerData.written, 0, 1);
    parentPort.postMessage({ written: true });
  } else if (message.checksums) parentPort.postMessage({ checksums });
  else if (message.close) {
    if (fd !== undefined) fs.closeSync(fd);
    else {
      gzip.end();
      await written;
    }
    parentPort.postMessage({ closed: true });
  }
}
let chain = Promise.resolve();
parentPort.on('message', (message) => (chain = chain.then(() => handle(message)).catch(fail)));
`;

/** Buffers in flight between the two threads: how far reading may run ahead of writing. */
const BUFFERS = 8;

/** A tar archive being written to `file` (gzip-compressed when `gzip`), with every file's checksum. */
export class ArchiveWriter {
  private readonly worker: Worker;
  /** The buffers, all views of one block of memory the two threads share (handing one over copies nothing). */
  private readonly slots: Buffer[] = [];
  /** Slots the writer is done with, and those handed to it (in order: it takes them in turn). */
  private readonly free: number[] = [];
  private readonly sent: number[] = [];
  /**
   * How many slots the writer has finished, counted by the writer in shared memory: this thread reads
   * it between files without going through its event loop (its messages wait for the next await).
   */
  private readonly written = new Int32Array(new SharedArrayBuffer(4));
  private reclaimed = 0;
  private wake?: () => void;
  private readonly replies: Array<{ resolve: (value: unknown) => void; reject: (error: Error) => void }> = [];
  private failure?: Error;
  /** The buffer being filled: entries gather here and go to the writer whole. */
  private current: Buffer;
  private slot = 0;
  private used = 0;
  /** Which bytes of `current` are which file's, for the writer to hash (see WRITER). */
  private ops: Array<[number, number] | [string, number]> = [];
  private readonly block = Buffer.alloc(BLOCK);

  constructor(file: string, gzip: boolean) {
    const shared = new SharedArrayBuffer(BUFFERS * BATCH);
    for (let i = 0; i < BUFFERS; i++) this.slots.push(Buffer.from(shared, i * BATCH, BATCH));
    this.worker = new Worker(WRITER, {
      eval: true,
      workerData: {
        file,
        gzip,
        write: WRITE,
        shared,
        buffers: BUFFERS,
        batch: BATCH,
        written: this.written,
        xxhash: createRequire(import.meta.url).resolve('xxhash-wasm'),
      },
    });
    this.worker.on('message', (message: { written?: boolean; error?: string }) => {
      if (message.written) {
        this.reclaim();
        this.wake?.();
      } else if (message.error) this.fail(new Error(`writing the archive: ${message.error}`));
      else this.replies.shift()?.resolve(message);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', () => this.fail(new Error('the archive writer stopped')));
    for (let i = 1; i < BUFFERS; i++) this.free.push(i);
    this.current = this.slots[0];
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.wake?.();
    for (const reply of this.replies.splice(0)) reply.reject(this.failure);
  }

  private ask<T>(message: object): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<T>((resolve, reject) => {
      this.replies.push({ resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage(message);
    });
  }

  /** Hands the current buffer to the writer and takes an empty one (waiting when all are in flight). */
  private async emit(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.used === 0 && this.ops.length === 0) return;
    this.worker.postMessage({ slot: this.slot, length: this.used, ops: this.ops });
    this.sent.push(this.slot);
    this.ops = [];
    this.used = 0;
    this.reclaim();
    while (this.free.length === 0) {
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
      if (this.failure) throw this.failure;
    }
    this.slot = this.free.pop()!;
    this.current = this.slots[this.slot];
  }

  /** Takes back the slots the writer has finished. */
  private reclaim(): void {
    for (const finished = Atomics.load(this.written, 0); this.reclaimed < finished; this.reclaimed++)
      this.free.push(this.sent.shift()!);
  }

  /** Bytes `from`..`to` of the current buffer belong to the file being written. */
  private hashed(from: number, to: number): void {
    const last = this.ops.at(-1);
    if (last && last[1] === from && typeof last[0] === 'number') last[1] = to;
    else this.ops.push([from, to]);
  }

  /** The file being written is complete. */
  private end(name: string, size: number): void {
    this.ops.push([name, size]);
  }

  /** Appends `data` (part of the file being written, when `hashed`). */
  private async put(data: Buffer, hashed = false): Promise<void> {
    for (let at = 0; at < data.length;) {
      if (this.used === BATCH) await this.emit();
      const length = Math.min(BATCH - this.used, data.length - at);
      data.copy(this.current, this.used, at, at + length);
      if (hashed) this.hashed(this.used, this.used + length);
      this.used += length;
      at += length;
    }
  }

  /** A header block (after a pax header when the name or link does not fit ustar's fields). */
  private async header(
    name: string,
    type: 'File' | 'Directory' | 'SymbolicLink',
    stat: { mode: number; mtime: Date },
    size: number,
    linkpath?: string,
  ): Promise<void> {
    const mode = stat.mode & 0o7777;
    this.block.fill(0);
    const header = new Header({ path: name, type, size, mode, mtime: stat.mtime, linkpath });
    if (header.encode(this.block, 0))
      await this.put(new Pax({ path: name, linkpath, mtime: stat.mtime, size, mode }).encode());
    await this.put(this.block);
  }

  async directory(name: string, stat: { mode: number; mtime: Date }): Promise<void> {
    await this.header(`${name}/`, 'Directory', stat, 0);
  }

  async symlink(name: string, target: string, stat: { mode: number; mtime: Date }): Promise<void> {
    await this.header(name, 'SymbolicLink', stat, 0, target);
  }

  /** A file whose bytes are in memory. */
  async buffer(name: string, data: Buffer, stat = { mode: 0o644, mtime: new Date() }): Promise<void> {
    await this.header(name, 'File', stat, data.length);
    await this.put(data, true);
    await this.put(ZEROS.subarray(0, padded(data.length) - data.length));
    this.end(name, data.length);
  }

  /** The open file `fd`, `stat.size` bytes of it from its start, read straight into the buffers. */
  async descriptor(name: string, fd: number, stat: fs.Stats): Promise<void> {
    const size = stat.size;
    await this.header(name, 'File', stat, size);
    for (let at = 0; at < size;) {
      if (this.used === BATCH) await this.emit();
      const length = Math.min(BATCH - this.used, size - at);
      let got = 0;
      while (got < length) {
        const n = fs.readSync(fd, this.current, this.used + got, length - got, at + got);
        if (n === 0) break;
        got += n;
      }
      if (got < length) this.current.fill(0, this.used + got, this.used + length);
      this.hashed(this.used, this.used + length);
      this.used += length;
      at += length;
    }
    await this.put(ZEROS.subarray(0, padded(size) - size));
    this.end(name, size);
  }

  /** Size and checksum of every regular file written so far, by its name in the archive. */
  async checksums(): Promise<Record<string, FileEntry>> {
    await this.emit();
    return (await this.ask<{ checksums: Record<string, FileEntry> }>({ checksums: true })).checksums;
  }

  /** The regular file at `from`, as `name`; false when it is not there (any more). */
  async file(from: string, name: string): Promise<boolean> {
    let fd: number;
    try {
      fd = fs.openSync(from, 'r');
    } catch (error) {
      if (vanished(error)) return false;
      throw error;
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) return false;
      await this.descriptor(name, fd, stat);
      return true;
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * The tree at `from` (a directory, or a single file) as `name`, skipping what vanishes meanwhile and
   * lock files (a `*.lock` copied along would block that file's next writer in the restored instance).
   * Answers the count of files written.
   */
  async tree(from: string, name: string, options: TreeOptions = {}): Promise<number> {
    let stat: fs.Stats | undefined;
    try {
      // No exception (and its stack) for the usual absent path: most projects have no uploads.
      stat = fs.lstatSync(from, { throwIfNoEntry: false });
    } catch (error) {
      if (vanished(error)) return 0;
      throw error;
    }
    if (!stat) return 0;
    if (stat.isFile()) return (await this.file(from, name)) ? 1 : 0;
    if (stat.isSymbolicLink()) {
      await this.symlink(name, fs.readlinkSync(from), stat);
      return 0;
    }
    if (!stat.isDirectory()) return 0;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(from, { withFileTypes: true });
    } catch (error) {
      if (vanished(error)) return 0;
      throw error;
    }
    await this.directory(name, stat);
    let files = 0;
    for (const entry of entries) {
      if (options.skip?.(entry.name) || entry.name.endsWith('.lock')) continue;
      const source = path.join(from, entry.name);
      const target = `${name}/${entry.name}`;
      if (entry.isFile()) files += (await this.file(source, target)) ? 1 : 0;
      else files += await this.tree(source, target, options);
    }
    return files;
  }

  /** The end of the archive; answers once every byte is written. */
  async close(): Promise<void> {
    await this.put(ZEROS);
    await this.emit();
    await this.ask({ close: true });
    await this.abort();
  }

  /** Stops the writer (after close, or instead of it when the backup failed). */
  async abort(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}
