// Build artifacts on disk: <dataDir>/artifacts/<YYYY_MM of the build's creation>/<project id>/<build id>/
// holds the uploaded archive under its (sanitized) name and `metadata.gz`, GitLab's list of the archive's
// entries. An upload streams into a temporary file with a size limit, then replaces what was there.
//
// The metadata is what gitlab-workhorse wrote for GitLab: a gzip stream of length-prefixed strings (each
// prefixed by its byte count as an unsigned 32-bit big-endian integer): the version line, an errors JSON
// ("{}"), then for every entry (directories implied by paths included, sorted by name) its path and a
// JSON object of modified, mode, crc, size, zipped and comment, zero values left out.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { monthDir, removeProjectFromMonths } from './month-dirs.ts';
import type yauzl from 'yauzl';
import { lazy } from '../lib/lazy.ts';
import { sanitizeFilename } from './uploads.ts';

const zipReader = lazy<typeof yauzl>('yauzl');

export const METADATA_FILE = 'metadata.gz';
const METADATA_VERSION = 'GitLab Build Artifacts Metadata 0.0.2\n';

export interface ArtifactsOwner {
  id: number;
  project_id: number;
  created_at: string;
}

export function artifactsRoot(dataDir: string): string {
  return path.join(dataDir, 'artifacts');
}

export function artifactsDir(dataDir: string, build: ArtifactsOwner): string {
  return path.join(
    artifactsRoot(dataDir),
    monthDir(build.created_at),
    String(build.project_id),
    String(build.id),
  );
}

/** The stored archive, or undefined when its file is gone. */
export async function findArtifactsFile(
  dataDir: string,
  build: ArtifactsOwner,
  filename: string,
): Promise<{ path: string; size: number } | undefined> {
  const file = path.join(artifactsDir(dataDir, build), filename);
  try {
    const stat = await fsp.stat(file);
    return stat.isFile() ? { path: file, size: stat.size } : undefined;
  } catch {
    return undefined;
  }
}

export function openArtifactsFile(file: string): fs.ReadStream {
  return fs.createReadStream(file);
}

export class ArtifactsTooLargeError extends Error {}

function sizeLimit(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      // GitLab refused an archive as large as the limit, not only a larger one.
      if (seen >= maxBytes) return callback(new ArtifactsTooLargeError());
      callback(null, chunk);
    },
  });
}

interface ZipEntryMetadata {
  modified?: number;
  mode?: string;
  crc?: number;
  size?: number;
  zipped?: number;
  comment?: string;
}

const UNIX_CREATORS = new Set([3, 19]); // Unix, OS X

function entryMetadata(entry: yauzl.Entry): ZipEntryMetadata {
  const name = entry.fileName as unknown as Buffer;
  const isDirectory = name.length > 0 && name[name.length - 1] === 0x2f;
  let mode: number;
  if (UNIX_CREATORS.has(entry.versionMadeBy >> 8)) {
    mode = (entry.externalFileAttributes >>> 16) & 0o777;
  } else {
    // MS-DOS attributes: directories 777, files 666, read-only drops the write bits.
    mode = isDirectory ? 0o777 : 0o666;
    if (entry.externalFileAttributes & 1) mode &= ~0o222;
  }
  const comment = (entry.fileComment as unknown as Buffer).toString('utf8');
  const metadata: ZipEntryMetadata = {};
  const modified = Math.floor(entry.getLastModDate({ timezone: 'UTC' }).getTime() / 1000);
  if (modified) metadata.modified = modified;
  if (mode) metadata.mode = mode.toString(8);
  if (entry.crc32) metadata.crc = entry.crc32;
  if (entry.uncompressedSize) metadata.size = entry.uncompressedSize;
  if (entry.compressedSize) metadata.zipped = entry.compressedSize;
  if (comment) metadata.comment = comment;
  return metadata;
}

/** The archive's entries from its central directory (the file is read where needed, never whole). */
function readZipEntries(file: string): Promise<Map<string, ZipEntryMetadata | null>> {
  return new Promise((resolve, reject) => {
    zipReader().open(
      file,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: false, autoClose: true },
      (error, zip) => {
        if (error || !zip) return reject(error ?? new Error('not a zip archive'));
        // Keys are the raw path bytes as latin1, so any byte sequence survives the round trip.
        const entries = new Map<string, ZipEntryMetadata | null>();
        zip.on('entry', (entry: yauzl.Entry) => {
          const name = (entry.fileName as unknown as Buffer).toString('latin1');
          entries.set(name, entryMetadata(entry));
          zip.readEntry();
        });
        zip.on('end', () => resolve(entries));
        zip.on('error', reject);
        zip.readEntry();
      },
    );
  });
}

function lengthPrefixed(bytes: Buffer): Buffer {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(bytes.length);
  return Buffer.concat([prefix, bytes]);
}

/** Writes metadata.gz for the archive; false when the upload is not a zip archive. */
async function writeMetadata(archive: string, target: string): Promise<boolean> {
  let entries: Map<string, ZipEntryMetadata | null>;
  try {
    entries = await readZipEntries(archive);
  } catch {
    return false;
  }
  for (const name of [...entries.keys()]) {
    for (let dir = path.posix.dirname(name); dir !== '.' && dir !== '/'; dir = path.posix.dirname(dir)) {
      if (!entries.has(`${dir}/`)) entries.set(`${dir}/`, null);
    }
  }
  const names = [...entries.keys()].sort((a, b) =>
    Buffer.compare(Buffer.from(a, 'latin1'), Buffer.from(b, 'latin1')),
  );
  const parts = [lengthPrefixed(Buffer.from(METADATA_VERSION)), lengthPrefixed(Buffer.from('{}'))];
  for (const name of names) {
    parts.push(lengthPrefixed(Buffer.from(name, 'latin1')));
    parts.push(lengthPrefixed(Buffer.from(`${JSON.stringify(entries.get(name) ?? {})}\n`)));
  }
  await fsp.writeFile(target, zlib.gzipSync(Buffer.concat(parts)));
  return true;
}

export interface StoredArtifacts {
  filename: string;
  size: number;
  /** null when the upload is not a zip archive (it is kept, but its entries cannot be listed). */
  metadata: string | null;
}

/**
 * Streams an upload into place (replacing earlier artifacts of the build) and writes its metadata.
 * Throws ArtifactsTooLargeError, keeping nothing, when it reaches `maxBytes`.
 */
export async function storeArtifacts(
  dataDir: string,
  build: ArtifactsOwner,
  originalName: string,
  source: Readable,
  maxBytes: number,
): Promise<StoredArtifacts> {
  const filename = sanitizeFilename(originalName || 'artifacts.zip');
  const dir = artifactsDir(dataDir, build);
  const staging = `${dir}.upload-${crypto.randomBytes(6).toString('hex')}`;
  await fsp.mkdir(staging, { recursive: true });
  try {
    const archive = path.join(staging, filename);
    await pipeline(source, sizeLimit(maxBytes), fs.createWriteStream(archive, { flags: 'wx' }));
    const size = (await fsp.stat(archive)).size;
    const hasMetadata = await writeMetadata(archive, path.join(staging, METADATA_FILE));
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.rename(staging, dir);
    return { filename, size, metadata: hasMetadata ? METADATA_FILE : null };
  } catch (error) {
    await fsp.rm(staging, { recursive: true, force: true });
    throw error;
  }
}

export async function removeArtifacts(dataDir: string, build: ArtifactsOwner): Promise<void> {
  await fsp.rm(artifactsDir(dataDir, build), { recursive: true, force: true });
}

/** A project's artifacts, whatever month they were made in (the project is being deleted). */
export async function removeProjectArtifacts(dataDir: string, projectId: number): Promise<void> {
  await removeProjectFromMonths(artifactsRoot(dataDir), projectId);
}

/** One entry of an archive as its metadata lists it (paths as UTF-8; directories end with `/`). */
export interface ArtifactsEntry {
  path: string;
  size: number;
}

/** Metadata larger than this is not read (a listing of millions of entries is no page to show). */
const METADATA_MAX_BYTES = 32 * 1024 * 1024;

/** The archive's entries from its metadata.gz, in its (byte) order; undefined when there is none. */
export async function readArtifactsEntries(
  dataDir: string,
  build: ArtifactsOwner,
): Promise<ArtifactsEntry[] | undefined> {
  let packed: Buffer;
  try {
    packed = await fsp.readFile(path.join(artifactsDir(dataDir, build), METADATA_FILE));
  } catch {
    return undefined;
  }
  const data = zlib.gunzipSync(packed, { maxOutputLength: METADATA_MAX_BYTES });
  const strings: Buffer[] = [];
  for (let at = 0; at + 4 <= data.length;) {
    const length = data.readUInt32BE(at);
    strings.push(data.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  const entries: ArtifactsEntry[] = [];
  // After the version line and the errors object: path, then its JSON, for every entry.
  for (let i = 2; i + 1 < strings.length; i += 2) {
    const details = JSON.parse(strings[i + 1]!.toString('utf8')) as ZipEntryMetadata;
    entries.push({ path: strings[i]!.toString('utf8'), size: details.size ?? 0 });
  }
  return entries;
}

/**
 * One file of the archive, streamed out of it (only its own bytes are read); undefined when the archive
 * has no file of that path. The path is compared as the UTF-8 bytes it names.
 */
export async function openArtifactsEntry(
  archive: string,
  name: string,
): Promise<{ size: number; stream: Readable } | undefined> {
  const wanted = Buffer.from(name, 'utf8');
  return new Promise((resolve, reject) => {
    zipReader().open(archive, { lazyEntries: true, decodeStrings: false }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip archive'));
      let found = false;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!(entry.fileName as unknown as Buffer).equals(wanted)) return zip.readEntry();
        found = true;
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) {
            zip.close();
            return reject(streamError ?? new Error('unreadable entry'));
          }
          stream.on('end', () => zip.close());
          stream.on('error', () => zip.close());
          resolve({ size: entry.uncompressedSize, stream });
        });
      });
      zip.on('end', () => {
        if (!found) {
          zip.close();
          resolve(undefined);
        }
      });
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A build's report artifacts (junit, dotenv …) live beside its archive's folder, one file per type. */
function reportsDir(dataDir: string, build: ArtifactsOwner): string {
  return `${artifactsDir(dataDir, build)}.reports`;
}

export function reportPath(
  dataDir: string,
  build: ArtifactsOwner,
  fileType: string,
  filename: string,
): string {
  return path.join(reportsDir(dataDir, build), fileType, filename);
}

/**
 * Streams a report upload into its type's folder (an archive upload does not touch it). Throws
 * ArtifactsTooLargeError, keeping nothing, when it reaches `maxBytes`.
 */
export async function storeReport(
  dataDir: string,
  build: ArtifactsOwner,
  fileType: string,
  originalName: string,
  source: Readable,
  maxBytes: number,
): Promise<{ filename: string; size: number; path: string }> {
  const filename = sanitizeFilename(originalName || fileType);
  const dir = path.dirname(reportPath(dataDir, build, fileType, filename));
  await fsp.mkdir(path.dirname(dir), { recursive: true });
  const staging = `${dir}.upload-${crypto.randomBytes(6).toString('hex')}`;
  await fsp.mkdir(staging);
  try {
    const file = path.join(staging, filename);
    await pipeline(source, sizeLimit(maxBytes), fs.createWriteStream(file, { flags: 'wx' }));
    const size = (await fsp.stat(file)).size;
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.rename(staging, dir);
    return { filename, size, path: path.join(dir, filename) };
  } catch (error) {
    await fsp.rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** One report type's folder of a build. */
export async function removeReportFile(
  dataDir: string,
  build: ArtifactsOwner,
  fileType: string,
): Promise<void> {
  await fsp.rm(path.join(reportsDir(dataDir, build), fileType), { recursive: true, force: true });
}

export async function removeReports(dataDir: string, build: ArtifactsOwner): Promise<void> {
  await fsp.rm(reportsDir(dataDir, build), { recursive: true, force: true });
}
