// A small file system of its own (tmpfs, mounted by the test: needs root) that a test can fill to the
// last byte and free again, for what a full disk does to writes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the file system refuses another byte. */
  fill(): void;
  /** Removes the filler. */
  free(): void;
  unmount(): void;
}

/** Mounts a tmpfs of `megabytes`, or answers why it cannot (mounting needs root). */
export function mountSmallDisk(megabytes: number): SmallDisk | string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    return `cannot mount a tmpfs: ${(error as Error).message.split('\n')[0]}`;
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = fs.openSync(filler, 'a');
      try {
        for (const size of [1 << 20, 1 << 12, 1]) {
          const chunk = Buffer.alloc(size, 0x66);
          for (;;) {
            try {
              fs.writeSync(fd, chunk);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        fs.closeSync(fd);
      }
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Empties SQLite's write-ahead log in `dataDir` (a checkpoint that truncates it), so the next write must
 * take new space rather than reuse the old log's pages: on a full disk it then fails with SQLITE_FULL.
 */
export function emptyWriteAheadLog(dataDir: string): void {
  const sqlite = new SQLite(path.join(dataDir, 'labrador.sqlite3'));
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
}
