// Path lists for CI rules: the paths a push changed (`rules: changes`) and every file of a commit
// (`rules: exists`), each one git call.
import { git } from './exec.ts';

const lines = (text: string) => text.split('\0').filter((line) => line !== '');

/** Paths that differ between two commits (added, changed, deleted or renamed, both names). */
export async function changedPaths(repoPath: string, from: string, to: string): Promise<string[]> {
  return lines(await git(['diff', '--name-only', '-z', '--no-renames', from, to, '--'], { cwd: repoPath }));
}

/** Every file path of a commit's tree. */
export async function treePaths(repoPath: string, sha: string): Promise<string[]> {
  return lines(await git(['ls-tree', '-r', '-z', '--name-only', '--full-tree', sha], { cwd: repoPath }));
}
