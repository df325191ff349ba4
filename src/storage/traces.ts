// Build traces on disk: <dataDir>/builds/<YYYY_MM of the build's creation>/<project id>/<build id>.log.
// Appends stream from the request into the file (never held whole); the trace's length is the file's.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { monthDir, removeProjectFromMonths } from './month-dirs.ts';

export interface TraceOwner {
  id: number;
  project_id: number;
  created_at: string;
}

export function tracesRoot(dataDir: string): string {
  return path.join(dataDir, 'builds');
}

export function tracePath(dataDir: string, build: TraceOwner): string {
  return path.join(
    tracesRoot(dataDir),
    monthDir(build.created_at),
    String(build.project_id),
    `${build.id}.log`,
  );
}

/** Bytes stored so far; 0 when there is no trace yet. */
export async function traceLength(file: string): Promise<number> {
  try {
    return (await fsp.stat(file)).size;
  } catch {
    return 0;
  }
}

export async function traceExists(file: string): Promise<boolean> {
  try {
    return (await fsp.stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Replaces the whole trace. */
export async function writeTrace(file: string, content: Buffer): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await fsp.writeFile(temporary, content);
  await fsp.rename(temporary, file);
}

export class TraceTooLargeError extends Error {}

function limit(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > maxBytes) return callback(new TraceTooLargeError());
      callback(null, chunk);
    },
  });
}

/**
 * Cuts the trace at `offset` and appends `body` (through `transform`, the secret mask) to it; the trace
 * may not grow beyond `maxBytes`. Answers the new length.
 */
export async function appendTrace(
  file: string,
  offset: number,
  body: Readable,
  transform: Transform,
  maxBytes: number,
): Promise<number> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const handle = await fsp.open(file, 'a+');
  try {
    await handle.truncate(offset);
  } finally {
    await handle.close();
  }
  await pipeline(
    body,
    limit(Math.max(0, maxBytes - offset)),
    transform,
    fs.createWriteStream(file, { flags: 'a' }),
  );
  return traceLength(file);
}

/** Up to `maxBytes` of the trace from byte `start` (fewer at its end; none past it). */
export async function readTraceRange(file: string, start: number, maxBytes: number): Promise<Buffer> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const buffer = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, start);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export function readTraceStream(file: string): fs.ReadStream {
  return fs.createReadStream(file);
}

export async function readTrace(file: string): Promise<Buffer | undefined> {
  try {
    return await fsp.readFile(file);
  } catch {
    return undefined;
  }
}

export async function removeTrace(file: string): Promise<void> {
  await fsp.rm(file, { force: true });
}

/** A project's traces, whatever month they were made in (the project is being deleted). */
export async function removeProjectTraces(dataDir: string, projectId: number): Promise<void> {
  await removeProjectFromMonths(tracesRoot(dataDir), projectId);
}
