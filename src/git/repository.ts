// Bare repositories on disk: <dataDir>/repositories/<namespace path>/<project path>.git.
import fs from 'node:fs/promises';
import path from 'node:path';
import { git } from './exec.ts';

export function repositoriesRoot(dataDir: string): string {
  return path.join(dataDir, 'repositories');
}

export function repositoryPath(dataDir: string, namespacePath: string, projectPath: string): string {
  return path.join(
    repositoriesRoot(dataDir),
    namespacePath.toLowerCase(),
    `${projectPath.toLowerCase()}.git`,
  );
}

export async function initBareRepository(repoPath: string, defaultBranch = 'master'): Promise<void> {
  await fs.mkdir(path.dirname(repoPath), { recursive: true });
  await git(['init', '--bare', '--quiet', repoPath]);
  await git(['symbolic-ref', 'HEAD', `refs/heads/${defaultBranch}`], { cwd: repoPath });
}

/** A bare copy of another repository (forks) or of a remote URL (imports). */
export async function cloneBareRepository(
  source: string,
  repoPath: string,
  timeoutMs = 300_000,
): Promise<void> {
  await fs.mkdir(path.dirname(repoPath), { recursive: true });
  await git(['clone', '--bare', '--quiet', '--', source, repoPath], { timeoutMs });
}

export async function moveRepository(from: string, to: string): Promise<void> {
  await fs.mkdir(path.dirname(to), { recursive: true });
  await fs.rename(from, to);
}

export async function removeRepository(repoPath: string): Promise<void> {
  await fs.rm(repoPath, { recursive: true, force: true });
}
