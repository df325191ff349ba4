// Project uploads on disk: <dataDir>/uploads/<namespace>/<project>/<secret>/<file>,
// with a fresh 32-hex secret per upload. Names are sanitized as CarrierWave did, so nothing written or
// served can leave its secret folder.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { hexToken } from '../lib/tokens.ts';

const IMAGE_OR_VIDEO = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'bmp',
  'tiff',
  'mp4',
  'm4v',
  'mov',
  'webm',
  'ogv',
]);

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  webm: 'video/webm',
  ogv: 'video/ogg',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  xml: 'application/xml',
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  html: 'text/html; charset=utf-8',
};

const SECRET = /^[0-9a-f]{32}$/;

function uploadsRoot(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

export function namespaceUploadsDir(dataDir: string, namespacePath: string): string {
  return path.join(uploadsRoot(dataDir), namespacePath.toLowerCase());
}

export function projectUploadsDir(dataDir: string, namespacePath: string, projectPath: string): string {
  return path.join(namespaceUploadsDir(dataDir, namespacePath), projectPath.toLowerCase());
}

/**
 * CarrierWave's sanitize: last path component, every character but word chars, '.', '-', '+' → '_'.
 * Square brackets are kept (harmless on disk) so names like `shot [1].png` survive; the markdown
 * escapes `]`.
 */
export function sanitizeFilename(original: string): string {
  let name = original.replace(/\\/g, '/');
  name = name.slice(name.lastIndexOf('/') + 1);
  name = name.replace(/[^\p{L}\p{M}\p{N}\p{Pc}.\-+[\]]/gu, '_');
  if (/^\.+$/.test(name)) name = `_${name}`;
  if (name.length === 0) name = 'unnamed';
  // Keep within common file-system name limits (255 bytes), preserving the extension.
  while (Buffer.byteLength(name) > 200) {
    const ext = path.extname(name);
    const stem = name.slice(0, name.length - ext.length);
    name = stem.length > 1 ? stem.slice(0, -1) + ext : name.slice(0, -1);
  }
  return name;
}

function extension(filename: string): string {
  return path.extname(filename).slice(1).toLowerCase();
}

export function isImageOrVideo(filename: string): boolean {
  return IMAGE_OR_VIDEO.has(extension(filename));
}

export function uploadContentType(filename: string): string {
  return CONTENT_TYPES[extension(filename)] ?? 'application/octet-stream';
}

export class UploadTooLargeError extends Error {}

/**
 * Streams a file into a fresh secret folder. `isTruncated` tells whether the size limit cut the stream
 * short; then nothing is kept and UploadTooLargeError is thrown.
 */
export async function storeUpload(
  dataDir: string,
  namespacePath: string,
  projectPath: string,
  originalName: string,
  source: Readable,
  isTruncated: () => boolean,
): Promise<{ secret: string; filename: string }> {
  const filename = sanitizeFilename(originalName);
  const secret = hexToken(16);
  const dir = path.join(projectUploadsDir(dataDir, namespacePath, projectPath), secret);
  await fsp.mkdir(dir, { recursive: true });
  try {
    await pipeline(source, fs.createWriteStream(path.join(dir, filename), { flags: 'wx' }));
    if (isTruncated()) throw new UploadTooLargeError();
  } catch (error) {
    await fsp.rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { secret, filename };
}

/** The stored file for a URL's secret and name, or undefined (bad secret, unsanitary name, missing file). */
export async function findUpload(
  dataDir: string,
  namespacePath: string,
  projectPath: string,
  secret: string,
  filename: string,
): Promise<{ path: string; size: number } | undefined> {
  if (!SECRET.test(secret) || filename !== sanitizeFilename(filename)) return undefined;
  const file = path.join(projectUploadsDir(dataDir, namespacePath, projectPath), secret, filename);
  try {
    const stat = await fsp.stat(file);
    return stat.isFile() ? { path: file, size: stat.size } : undefined;
  } catch {
    return undefined;
  }
}

export async function removeProjectUploads(
  dataDir: string,
  namespacePath: string,
  projectPath: string,
): Promise<void> {
  await fsp.rm(projectUploadsDir(dataDir, namespacePath, projectPath), { recursive: true, force: true });
}

/** Moves a folder if it exists (project or namespace renames carry their uploads along). */
export async function moveUploadsDir(from: string, to: string): Promise<void> {
  if (from === to) return;
  try {
    await fsp.mkdir(path.dirname(to), { recursive: true });
    await fsp.rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
