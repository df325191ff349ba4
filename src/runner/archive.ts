// Artifacts and caches as zip archives (yazl writes, yauzl reads): the files that `paths` (globs in the
// project dir; a directory counts with everything under it) and `untracked` (what git does not track)
// name, with their modes and times; symlinks are kept as links. Nothing is read or written outside the
// project dir.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import yauzl from 'yauzl';
import yazl from 'yazl';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function globRegExp(segment: string): RegExp {
  let source = '';
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i]!;
    if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const end = segment.indexOf(']', i + 1);
      if (end < 0) source += '\\[';
      else {
        const body = segment
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        source += `[${body}]`;
        i = end;
      }
    } else source += char.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function lstat(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

/** Project-relative paths matching one pattern (segments with *, ? or [...] are matched per directory). */
function expandPattern(root: string, pattern: string): string[] | undefined {
  const normal = path.posix.normalize(pattern.replace(/^\.\/+/, '')).replace(/\/+$/, '');
  if (normal === '.' || normal === '') return ['.'];
  if (path.posix.isAbsolute(normal) || normal === '..' || normal.startsWith('../')) return undefined;
  let matches = [''];
  for (const segment of normal.split('/')) {
    const next: string[] = [];
    for (const base of matches) {
      if (!/[*?[]/.test(segment)) {
        const candidate = base === '' ? segment : `${base}/${segment}`;
        if (lstat(path.join(root, candidate))) next.push(candidate);
        continue;
      }
      let names: string[];
      try {
        names = fs.readdirSync(path.join(root, base || '.'));
      } catch {
        continue;
      }
      const matcher = globRegExp(segment);
      for (const name of names.sort()) {
        if (name !== '.git' && matcher.test(name)) next.push(base === '' ? name : `${base}/${name}`);
      }
    }
    matches = next;
  }
  return matches;
}

/** A path and, for a directory, everything under it (never .git). */
function walk(root: string, relative: string, into: Set<string>): void {
  const stat = lstat(path.join(root, relative));
  if (!stat) return;
  if (relative !== '.') into.add(stat.isDirectory() ? `${relative}/` : relative);
  if (!stat.isDirectory()) return;
  for (const name of fs.readdirSync(path.join(root, relative)).sort()) {
    if (name === '.git') continue;
    walk(root, relative === '.' ? name : `${relative}/${name}`, into);
  }
}

/** Files git does not track (ignored ones too), as gitlab-runner's `untracked` collected them. */
async function untrackedFiles(root: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('git', ['ls-files', '-o', '-z'], {
    cwd: root,
    maxBuffer: 256 * 1024 * 1024,
  });
  return stdout.split('\0').filter((name) => name !== '');
}

export interface Selection {
  /** Entries: files as `a/b`, directories as `a/` (parents listed before children). */
  entries: string[];
  /** Patterns that matched nothing (or pointed outside the project). */
  unmatched: string[];
}

export async function selectFiles(root: string, patterns: string[], untracked: boolean): Promise<Selection> {
  const found = new Set<string>();
  const unmatched: string[] = [];
  for (const pattern of patterns) {
    const matches = expandPattern(root, pattern);
    if (!matches || matches.length === 0) unmatched.push(pattern);
    for (const match of matches ?? []) walk(root, match, found);
  }
  if (untracked) for (const name of await untrackedFiles(root)) walk(root, name.replace(/\/$/, ''), found);
  // Each file's parent directories, so modes and times come back on extraction.
  for (const entry of [...found]) {
    const parts = entry.replace(/\/$/, '').split('/');
    for (let i = 1; i < parts.length; i++) found.add(`${parts.slice(0, i).join('/')}/`);
  }
  return { entries: [...found].sort(), unmatched };
}

/** Writes the entries (relative to root) into a zip file. */
export async function writeZip(root: string, entries: string[], file: string): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    const full = path.join(root, entry);
    const stat = fs.lstatSync(full);
    const options = { mtime: stat.mtime, mode: stat.mode };
    if (entry.endsWith('/')) zip.addEmptyDirectory(entry, options);
    else if (stat.isSymbolicLink()) zip.addBuffer(Buffer.from(fs.readlinkSync(full)), entry, options);
    else zip.addFile(full, entry, options);
  }
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(file));
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    ),
  );
}

function inside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Unpacks a zip into root (existing files are replaced); returns how many entries it held. */
export async function extractZip(file: string, root: string): Promise<number> {
  const zip = await openZip(file);
  const realRoot = fs.realpathSync(root);
  let count = 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      zip.close();
      reject(error);
    };
    zip.on('error', fail);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      void (async () => {
        count++;
        const target = path.join(root, entry.fileName);
        const mode = entry.externalFileAttributes >>> 16;
        if (entry.fileName.endsWith('/')) {
          fs.mkdirSync(target, { recursive: true });
          return;
        }
        fs.mkdirSync(path.dirname(target), { recursive: true });
        // A link unpacked earlier must not carry a later entry outside the project.
        if (!inside(realRoot, fs.realpathSync(path.dirname(target)))) {
          throw new Error(`${entry.fileName} points outside the project dir`);
        }
        fs.rmSync(target, { force: true });
        const stream = await new Promise<NodeJS.ReadableStream>((ok, ko) =>
          zip.openReadStream(entry, (error, readable) => (error ? ko(error) : ok(readable))),
        );
        if ((mode & S_IFMT) === S_IFLNK) {
          const chunks: Buffer[] = [];
          for await (const chunk of stream) chunks.push(chunk as Buffer);
          fs.symlinkSync(Buffer.concat(chunks).toString(), target);
          return;
        }
        await pipeline(stream, fs.createWriteStream(target, { mode: mode & 0o777 || 0o644 }));
        fs.utimesSync(target, entry.getLastModDate(), entry.getLastModDate());
      })().then(() => zip.readEntry(), fail);
    });
    zip.readEntry();
  });
  return count;
}
