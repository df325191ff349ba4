// Bare repositories on disk: <dataDir>/repositories/<namespace path>/<project path>.git.
import fs from 'node:fs/promises';
import path from 'node:path';
import { git } from './exec.ts';

export function repositoriesRoot(dataDir: string): string {
  return path.join(dataDir, 'repositories');
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
  await fs.mkdir(path.dirname(repoPath), { recursive: true });
  if (await makeDirectory(repoPath)) return true;
  try {
    await fs.rmdir(repoPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') return false;
    if (code !== 'ENOENT') throw error;
  }
  return makeDirectory(repoPath);
}

async function makeDirectory(dir: string): Promise<boolean> {
  try {
    await fs.mkdir(dir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

export async function writeCreationMarker(repoPath: string, token: string): Promise<void> {
  await fs.writeFile(path.join(repoPath, CREATION_MARKER), `${token}\n`);
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
  await fs.rm(path.join(repoPath, CREATION_MARKER), { force: true });
}

export async function initBareRepository(repoPath: string, defaultBranch = 'master'): Promise<void> {
  await fs.mkdir(path.dirname(repoPath), { recursive: true });
  await git(['init', '--bare', '--quiet', repoPath]);
  await git(['symbolic-ref', 'HEAD', `refs/heads/${defaultBranch}`], { cwd: repoPath });
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
  try {
    await fs.access(path.join(repoPath, 'HEAD'));
    return true;
  } catch {
    return false;
  }
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
