// The data dir itself: whether it can be written (start-up, /-/health) and the stamp that says which
// database it belongs to (`<data dir>/database-id`, written once at the first start).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

const STAMP_FILE = 'database-id';

export function dataDirStampPath(dataDir: string): string {
  return path.join(dataDir, STAMP_FILE);
}

/**
 * Proves the data dir writable by writing and removing a small file; at start (`create`) it is made
 * first if missing, a health check only looks.
 */
export async function probeDataDir(dataDir: string, options: { create: boolean }): Promise<void> {
  if (options.create) await fs.mkdir(dataDir, { recursive: true });
  const probe = path.join(dataDir, `.write-probe-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  const file = await fs.open(probe, 'wx');
  try {
    await file.writeFile('ok\n');
  } finally {
    await file.close();
    await fs.rm(probe, { force: true });
  }
}

export async function readDataDirStamp(dataDir: string): Promise<string | undefined> {
  try {
    return (await fs.readFile(dataDirStampPath(dataDir), 'utf8')).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes the stamp unless one is there already, durably and in one step (a complete file or none);
 * answers the stamp in place afterwards, ours or one that another process wrote first.
 */
export async function writeDataDirStamp(dataDir: string, id: string): Promise<string> {
  const target = dataDirStampPath(dataDir);
  const temporary = `${target}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const file = await fs.open(temporary, 'wx');
  try {
    await file.writeFile(`${id}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    // link() fails when the target exists: the first stamp stays.
    await fs.link(temporary, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await fs.rm(temporary, { force: true });
  }
  const directory = await fs.open(dataDir, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
  return (await readDataDirStamp(dataDir))!;
}
