// Bare repositories on disk: <dataDir>/repositories/<namespace path>/<project path>.git.
import crypto from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { git } from './exec.ts';

export function repositoriesRoot(dataDir: string): string {
  return path.join(dataDir, 'repositories');
}

/**
 * Scratch space beside the repositories (the same file system, so its results move into place by rename):
 * clones of forks in progress, the skeleton of new repositories. Nothing there belongs to a project.
 */
export function repositoriesScratch(dataDir: string): string {
  return path.join(repositoriesRoot(dataDir), '.tmp');
}

/** The one place a project's repository (or, for `wiki`, its wiki's) is placed on disk. */
export function repositoryPath(
  dataDir: string,
  namespacePath: string,
  projectPath: string,
  kind: 'project' | 'wiki' = 'project',
): string {
  const name = kind === 'wiki' ? `${projectPath}.wiki` : projectPath;
  return path.join(repositoriesRoot(dataDir), namespacePath.toLowerCase(), `${name.toLowerCase()}.git`);
}

/** The repository of a loaded project: its namespace's path and its own. */
export function projectRepositoryPath(
  dataDir: string,
  record: { namespace: { path: string }; project: { path: string } },
): string {
  return repositoryPath(dataDir, record.namespace.path, record.project.path);
}

/**
 * A file inside a repository that a project create is still making: it holds the create's token until
 * the create commits. git ignores unknown files in a repository directory.
 */
const CREATION_MARKER = 'labrador-creation';

/**
 * Makes `repoPath` as a new empty directory. False when something is already there, unless it is an
 * empty directory (nothing to lose: a create that stopped right after making it).
 */
export async function claimDirectory(repoPath: string): Promise<boolean> {
  if (await makeDirectory(repoPath)) return true;
  try {
    fsSync.rmdirSync(repoPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') return false;
    if (code !== 'ENOENT') throw error;
  }
  return makeDirectory(repoPath);
}

// The steps of a create that run while it holds the database's writer are synchronous: each trip through
// the thread pool waited for the event loop's next turn with every other create queued behind it.
async function makeDirectory(dir: string): Promise<boolean> {
  try {
    fsSync.mkdirSync(dir);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'ENOENT') throw error;
  }
  // The namespace's first repository: its folder is made only now, not looked for on every create.
  fsSync.mkdirSync(path.dirname(dir), { recursive: true });
  return makeDirectory(dir);
}

export async function writeCreationMarker(repoPath: string, token: string): Promise<void> {
  fsSync.writeFileSync(path.join(repoPath, CREATION_MARKER), `${token}\n`);
}

/** The token of the create that is making (or made and never committed) this repository, if any. */
export async function readCreationMarker(repoPath: string): Promise<string | undefined> {
  try {
    return (await fs.readFile(path.join(repoPath, CREATION_MARKER), 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function removeCreationMarker(repoPath: string): Promise<void> {
  // unlink, not rm: rm looks at the file first (an lstat through the thread pool per create).
  try {
    fsSync.unlinkSync(path.join(repoPath, CREATION_MARKER));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** The branch HEAD names in a new repository unless the project says otherwise. */
const SKELETON_BRANCH = 'master';

/**
 * What `git init --bare` and `symbolic-ref HEAD refs/heads/master` leave on disk, folders then files,
 * less the sample hooks: thirteen files of every repository (two thirds of a new one's) that git never
 * runs (`*.sample`) and each create wrote and each backup copied.
 */
interface RepositorySkeleton {
  directories: string[];
  files: Array<{ name: string; content: Buffer; mode: number }>;
}

/**
 * Made once per process by git itself, in the repositories' scratch space (so that git probes the file
 * system they live on), then copied for each new project: spawning git twice per new project cost half of
 * a create's CPU, synchronously on the event loop, while the create held the database's writer.
 */
let skeleton: Promise<RepositorySkeleton> | undefined;

async function readSkeleton(dataDir: string): Promise<RepositorySkeleton> {
  const made = path.join(
    repositoriesScratch(dataDir),
    `skeleton-${crypto.randomBytes(8).toString('hex')}.git`,
  );
  try {
    await git(['init', '--bare', '--quiet', made]);
    await git(['symbolic-ref', 'HEAD', `refs/heads/${SKELETON_BRANCH}`], { cwd: made });
    const result: RepositorySkeleton = { directories: [], files: [] };
    const walk = async (relative: string): Promise<void> => {
      const entries = await fs.readdir(path.join(made, relative), { withFileTypes: true });
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const name = path.join(relative, entry.name);
        if (entry.isDirectory()) {
          result.directories.push(name);
          await walk(name);
        } else if (!entry.name.endsWith('.sample')) {
          const full = path.join(made, name);
          const [content, stat] = await Promise.all([fs.readFile(full), fs.stat(full)]);
          result.files.push({ name, content, mode: stat.mode & 0o777 });
        }
      }
    };
    await walk('');
    return result;
  } finally {
    await fs.rm(made, { recursive: true, force: true });
  }
}

/**
 * A new empty bare repository at `repoPath` (which may exist as an empty directory) with HEAD on the
 * branch, as `git init --bare` makes it less the sample hooks; `dataDir` is the one it lives under.
 */
export async function initBareRepository(
  dataDir: string,
  repoPath: string,
  defaultBranch = SKELETON_BRANCH,
): Promise<void> {
  fsSync.mkdirSync(repoPath, { recursive: true });
  skeleton ??= readSkeleton(dataDir);
  let files: RepositorySkeleton;
  try {
    files = await skeleton;
  } catch (error) {
    skeleton = undefined; // the next create tries again
    throw error;
  }
  // About 30 small writes, synchronously (about a millisecond of the event loop on a loaded machine): as
  // many trips through the thread pool would each wait to be scheduled while the create holds the writer.
  for (const name of files.directories) fsSync.mkdirSync(path.join(repoPath, name));
  for (const file of files.files) {
    fsSync.writeFileSync(path.join(repoPath, file.name), file.content, { mode: file.mode });
  }
  // git checks the branch name, as it did when it made each repository itself.
  if (defaultBranch !== SKELETON_BRANCH) {
    await git(['symbolic-ref', 'HEAD', `refs/heads/${defaultBranch}`], { cwd: repoPath });
  }
}

/** How long copying a repository (a fork) may take before it is given up. */
const CLONE_TIMEOUT_MS = 300_000;

/** A bare copy of another repository on this machine (forks; imports from a URL are git/import.ts). */
export async function cloneBareRepository(source: string, repoPath: string): Promise<void> {
  await fs.mkdir(path.dirname(repoPath), { recursive: true });
  await git(['clone', '--bare', '--quiet', '--', source, repoPath], { timeoutMs: CLONE_TIMEOUT_MS });
}

export async function moveRepository(from: string, to: string): Promise<void> {
  await fs.mkdir(path.dirname(to), { recursive: true });
  await fs.rename(from, to);
}

export async function removeRepository(repoPath: string): Promise<void> {
  await fs.rm(repoPath, { recursive: true, force: true });
}

/** Whether a bare repository exists at the path (a project whose import failed may have none). */
export async function repositoryExists(repoPath: string): Promise<boolean> {
  // Synchronous on purpose: one stat of a local path, where fs.promises.access answered a missing
  // repository with a rejected Error (a stack trace captured) after a trip through the thread pool; on a
  // page of builds whose project has no repository that was the largest cost in the profile.
  return fsSync.existsSync(path.join(repoPath, 'HEAD'));
}

/**
 * git's own housekeeping, when the repository needs it (`gc --auto`: packs loose objects and small
 * packs), in the foreground so the caller knows when it is over. False when the repository is gone.
 */
export async function collectGarbageIfNeeded(repoPath: string): Promise<boolean> {
  if (!(await repositoryExists(repoPath))) return false;
  await git(['-c', 'gc.autoDetach=false', 'gc', '--auto', '--quiet'], {
    cwd: repoPath,
    timeoutMs: 60 * 60 * 1000,
  });
  return true;
}

/**
 * A full `git gc` (what GitLab's eager housekeeping asks for: repacks everything and prunes), in the
 * foreground. False when the repository is gone (a project without one yet).
 */
export async function collectGarbage(repoPath: string): Promise<boolean> {
  if (!(await repositoryExists(repoPath))) return false;
  await git(['-c', 'gc.autoDetach=false', 'gc', '--quiet'], { cwd: repoPath, timeoutMs: 60 * 60 * 1000 });
  return true;
}

/**
 * A bare repository at `repoPath` made now unless one is there (a wiki, made on its first write or first
 * git access): made whole in the scratch space and renamed into place, so two requests that make it at
 * once leave one repository and nobody sees a half-made one.
 */
export async function ensureBareRepository(dataDir: string, repoPath: string): Promise<void> {
  if (await repositoryExists(repoPath)) return;
  const scratch = repositoriesScratch(dataDir);
  fsSync.mkdirSync(scratch, { recursive: true });
  const made = path.join(scratch, `new-${crypto.randomBytes(8).toString('hex')}.git`);
  try {
    await initBareRepository(dataDir, made);
    fsSync.mkdirSync(path.dirname(repoPath), { recursive: true });
    try {
      fsSync.renameSync(made, repoPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Another request made it first.
      if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || !(await repositoryExists(repoPath))) throw error;
    }
  } finally {
    await fs.rm(made, { recursive: true, force: true });
  }
}
