// `npm run admin -- backup <file>` and `restore <file>`: one tar archive (gzip when the name ends in .gz
// or .tgz) of the database's rows, every repository, uploads, build artifacts and traces, the data dir's
// identity (database-id, SSH host keys) and, last, a manifest with every file's checksum. The archive is
// written as one stream (storage/backup-archive.ts), each file read once; node-tar reads it back.
//
// Consistency while the server takes writes: the database is snapshotted first (db/dump.ts), then the
// files of exactly the projects in that snapshot are written (storage/backup-files.ts pins each
// repository, refs before objects, before writing it). Refs only move forward in the time between,
// so each repository written has at least the refs the snapshot's rows know of (pushes, merge requests,
// pipelines all name commits that were in the repository before the row committed: Labrador writes the
// ref, then the row); a project created after the snapshot is in neither, which is consistent too. A
// project renamed since the snapshot is found where it is now and stored under the snapshot's path; one
// deleted since gets an empty repository (its owner removed it; the snapshot still lists it), so the
// restored instance still passes `check`. Force-pushes and deleted branches between snapshot and copy are
// the one way a repository can have less than its rows say, as with any live copy.
import crypto from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as tar from 'tar';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/connect.ts';
import { databaseIsEmpty, dumpDatabase, loadDatabase, type Row } from '../../db/dump.ts';
import { findProjectLocation } from '../../db/repositories/project-locations.ts';
import { migrate, migrateOnly } from '../../db/migrations/index.ts';
import { openDatabase } from '../../db/connect.ts';
import { initBareRepository, repositoriesRoot, repositoryPath } from '../../git/repository.ts';
import { version } from '../../lib/version.ts';
import { artifactsRoot } from '../../storage/artifacts.ts';
import { ArchiveWriter, CHECKSUM, type ChecksumKind, type FileEntry } from '../../storage/backup-archive.ts';
import { archiveRepository, fileChecksums } from '../../storage/backup-files.ts';
import { dataDirStampPath } from '../../storage/data-dir.ts';
import { tracesRoot } from '../../storage/traces.ts';
import { projectUploadsDir } from '../../storage/uploads.ts';

const FORMAT = 'labrador-backup';
/** The format written; restore reads every one, each with its checksum (format 1 had SHA-256). */
const FORMAT_VERSION = 2;
const FORMAT_CHECKSUMS: Record<number, ChecksumKind> = { 1: 'sha256', 2: CHECKSUM };

interface Manifest {
  format: string;
  format_version: number;
  labrador_version: string;
  created_at: string;
  engine: 'sqlite' | 'postgres';
  migrations: string[];
  tables: Record<string, number>;
  repositories: number;
  /** Projects deleted between the snapshot and the copy of their files (restored with empty repositories). */
  vanished_projects: number[];
  files: Record<string, FileEntry>;
}

export interface BackupSummary {
  bytes: number;
  tables: number;
  rows: number;
  repositories: number;
  files: number;
  seconds: number;
}

/** Something the operator must hear in one line: a refused restore or an unusable archive. */
export class BackupRefused extends Error {}

type Progress = (line: string) => void;

const isGzip = (file: string) => /\.(t?gz)$/i.test(file);

/** The scratch space for a backup: inside the data dir, so staging by hard link works. */
function scratchDir(dataDir: string): string {
  return path.join(dataDir, 'cache', `backup-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
}

export async function createBackup(
  config: Config,
  db: Db,
  file: string,
  progress: Progress,
): Promise<BackupSummary> {
  const started = performance.now();
  const scratch = scratchDir(config.dataDir);
  const temporary = `${file}.partial-${process.pid}`;
  await fs.mkdir(path.join(scratch, 'database'), { recursive: true });
  let archive: ArchiveWriter | undefined;
  try {
    // 1. The database, one snapshot; remember where its projects' files are.
    const namespaces = new Map<number, string>();
    const projects: Array<{ id: number; path: string; namespaceId: number }> = [];
    progress('database: snapshot');
    const dump = await dumpDatabase(
      db,
      config.dataDir,
      path.join(scratch, 'database'),
      scratch,
      (table, row: Row) => {
        if (table === 'namespaces') namespaces.set(Number(row.id), String(row.path));
        if (table === 'projects')
          projects.push({
            id: Number(row.id),
            path: String(row.path),
            namespaceId: Number(row.namespace_id),
          });
      },
    );
    archive = new ArchiveWriter(temporary, isGzip(file));
    await archive.tree(path.join(scratch, 'database'), 'database');

    // 2. The files of the snapshot's projects, each found where it is now, one after the other: the
    // archive is one stream, and each file is read and hashed once on its way into it.
    const vanished: number[] = [];
    let repositories = 0;
    let done = 0;
    /** Where a file of the data dir goes in the archive. */
    const inArchive = (file: string) =>
      `files/${path.relative(config.dataDir, file).split(path.sep).join('/')}`;
    for (const project of projects) {
      progress(`repositories: ${++done}/${projects.length}`);
      const namespacePath = namespaces.get(project.namespaceId) ?? '';
      let now: { namespacePath: string; path: string } | undefined = { namespacePath, path: project.path };
      const here = repositoryPath(config.dataDir, namespacePath, project.path);
      if (!existsSync(path.join(here, 'HEAD'))) now = await findProjectLocation(db.kysely, project.id);
      const storedAs = (kind: 'project' | 'wiki') =>
        inArchive(repositoryPath(config.dataDir, namespacePath, project.path, kind));
      for (const kind of ['project', 'wiki'] as const) {
        if (!now) break;
        const live = repositoryPath(config.dataDir, now.namespacePath, now.path, kind);
        const written = await archiveRepository(archive, live, storedAs(kind), scratch);
        if (written !== undefined) repositories++;
        // No repository there: deleted meanwhile, or one that never was (an import that failed).
        else if (kind === 'project') now = await findProjectLocation(db.kysely, project.id);
      }
      if (!now) {
        // Deleted since the snapshot: an empty repository, so the restored instance passes `check`.
        vanished.push(project.id);
        await archive.tree(await emptyRepository(config.dataDir, scratch), storedAs('project'));
        repositories++;
        continue;
      }
      await archive.tree(
        projectUploadsDir(config.dataDir, now.namespacePath, now.path),
        inArchive(projectUploadsDir(config.dataDir, namespacePath, project.path)),
      );
    }

    // 3. Artifacts and traces (by project and build id, so renames do not move them), identity.
    progress('artifacts, traces');
    // An artifacts upload in progress sits beside its final directory as `<id>.upload-<random>`.
    await archive.tree(artifactsRoot(config.dataDir), inArchive(artifactsRoot(config.dataDir)), {
      skip: (name) => name.includes('.upload-'),
    });
    // Traces grow in place while builds run: each is taken at the length it had when opened.
    await archive.tree(tracesRoot(config.dataDir), inArchive(tracesRoot(config.dataDir)));
    await archive.tree(dataDirStampPath(config.dataDir), inArchive(dataDirStampPath(config.dataDir)));
    await archive.tree(path.join(config.dataDir, 'ssh'), 'files/ssh');

    // 4. The manifest, last: the checksums of what was written before it.
    const checksums = await archive.checksums();
    const manifest: Manifest = {
      format: FORMAT,
      format_version: FORMAT_VERSION,
      labrador_version: version,
      created_at: new Date().toISOString(),
      engine: db.dialect,
      migrations: dump.migrations,
      tables: dump.tables,
      repositories,
      vanished_projects: vanished,
      files: { ...checksums },
    };
    await archive.buffer('manifest.json', Buffer.from(`${JSON.stringify(manifest)}\n`));
    progress('archive');
    await archive.close();
    archive = undefined;
    await fs.rename(temporary, file);
    const fileCount = Object.keys(manifest.files).filter((name) => name.startsWith('files/')).length;
    return {
      bytes: (await fs.stat(file)).size,
      tables: Object.keys(dump.tables).length,
      rows: Object.values(dump.tables).reduce((sum, n) => sum + n, 0),
      repositories,
      files: fileCount,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    if (archive) {
      await archive.abort().catch(() => {});
      await fs.rm(temporary, { force: true });
    }
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** An empty bare repository in `scratch` (made once), for projects deleted since the snapshot. */
async function emptyRepository(dataDir: string, scratch: string): Promise<string> {
  const made = path.join(scratch, 'empty.git');
  if (!existsSync(path.join(made, 'HEAD'))) await initBareRepository(dataDir, made);
  return made;
}

/** Refuses a data dir that holds anything (an absent one is fine: the restore makes it). */
async function checkEmptyDataDir(dataDir: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (names.length > 0) {
    throw new BackupRefused(
      `restore refused: data dir ${dataDir} is not empty (${names.slice(0, 3).join(', ')}…); nothing was changed`,
    );
  }
}

/** Unpacks and checks the archive in `into`; answers its manifest. Damage of any kind is refused. */
async function unpackChecked(file: string, into: string): Promise<Manifest> {
  try {
    await fs.access(file);
  } catch {
    throw new BackupRefused(`restore refused: cannot read ${file}; nothing was changed`);
  }
  try {
    await tar.extract({ file, cwd: into, strict: true });
  } catch (error) {
    throw new BackupRefused(
      `restore refused: ${file} is not a readable archive (${(error as Error).message}); nothing was changed`,
    );
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await fs.readFile(path.join(into, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    throw new BackupRefused(`restore refused: ${file} has no readable manifest.json; nothing was changed`);
  }
  const kind = manifest.format === FORMAT ? FORMAT_CHECKSUMS[manifest.format_version] : undefined;
  if (!kind) {
    throw new BackupRefused(
      `restore refused: ${file} is not a Labrador backup of format ${Object.keys(FORMAT_CHECKSUMS).join(' or ')}; nothing was changed`,
    );
  }
  const found = await fileChecksums(into, kind);
  delete found['manifest.json'];
  for (const [name, expected] of Object.entries(manifest.files)) {
    const actual = found[name];
    if (!actual || !expected[kind] || actual[kind] !== expected[kind] || actual.size !== expected.size) {
      throw new BackupRefused(
        `restore refused: ${file} is damaged (${name} ${actual ? 'does not match its checksum' : 'is missing'}); nothing was changed`,
      );
    }
  }
  const extra = Object.keys(found).find((name) => !(name in manifest.files));
  if (extra)
    throw new BackupRefused(
      `restore refused: ${file} is damaged (${extra} is not in its manifest); nothing was changed`,
    );
  return manifest;
}

export interface RestoreSummary {
  rows: number;
  tables: number;
  repositories: number;
  files: number;
  seconds: number;
}

/**
 * Restores an archive into an empty data dir and an empty database (either engine, whichever made the
 * archive). Everything is checked before anything is written: the target is empty, the archive is whole
 * (every checksum). The files are unpacked beside the data dir, and moved in once the database is loaded;
 * on SQLite the database file is made there too, so a restore that fails leaves the data dir as it was.
 */
export async function restoreBackup(
  config: Config,
  file: string,
  progress: Progress,
): Promise<RestoreSummary> {
  const started = performance.now();
  const { dataDir } = config;
  await checkEmptyDataDir(dataDir);
  let db: Db | undefined;
  if (config.databaseUrl) {
    db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir });
    if (!(await databaseIsEmpty(db))) {
      await db.close();
      throw new BackupRefused(
        'restore refused: the database is not empty (it has tables); nothing was changed',
      );
    }
  }
  const unpacked = path.join(path.dirname(dataDir), `.${path.basename(dataDir)}.restore-${process.pid}`);
  await fs.rm(unpacked, { recursive: true, force: true });
  await fs.mkdir(unpacked, { recursive: true });
  try {
    progress('checking the archive');
    const manifest = await unpackChecked(file, unpacked);
    const files = path.join(unpacked, 'files');
    await fs.mkdir(files, { recursive: true });
    db ??= await openDatabase({ databaseUrl: undefined, dataDir: files });
    // The schema the rows were dumped from, the rows, then whatever migrations came after the archive.
    const unknown = await migrateOnly(db, manifest.migrations);
    if (unknown.length > 0) {
      throw new BackupRefused(
        `restore refused: the archive comes from a newer Labrador (migrations ${unknown.join(', ')}); nothing was changed`,
      );
    }
    const tables = Object.keys(manifest.tables);
    await loadDatabase(db, path.join(unpacked, 'database'), tables, (table, rows) =>
      progress(`database: ${table} ${rows}`),
    );
    await migrate(db);
    await db.close();
    db = undefined;
    progress('files');
    await fs.mkdir(dataDir, { recursive: true });
    for (const name of await fs.readdir(files))
      await fs.rename(path.join(files, name), path.join(dataDir, name));
    await fs.mkdir(repositoriesRoot(dataDir), { recursive: true });
    return {
      rows: Object.values(manifest.tables).reduce((sum, n) => sum + n, 0),
      tables: tables.length,
      repositories: manifest.repositories,
      files: Object.keys(manifest.files).filter((name) => name.startsWith('files/')).length,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await db?.close();
    await fs.rm(unpacked, { recursive: true, force: true });
  }
}
