// Names for commits and objects as clients give them: a sha (full or abbreviated), a branch, a tag or any
// revision git understands (`master~2`). Each is passed after --end-of-options, so no name is ever read
// as an option; names git could not hold (NUL, newline, longer than a path) name nothing.
import { runGit } from './exec.ts';
import { isOverlongName } from './name-limits.ts';

function unusable(name: string): boolean {
  return name === '' || /[\0\n]/.test(name) || isOverlongName(name);
}

/** The commit a revision names (annotated tags peeled), or undefined. */
export async function resolveCommit(repoPath: string, revision: string): Promise<string | undefined> {
  if (unusable(revision)) return undefined;
  const result = await runGit(
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`],
    {
      cwd: repoPath,
    },
  );
  return result.code === 0 ? result.stdout.toString().trim() : undefined;
}

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface ObjectInfo {
  id: string;
  type: ObjectType;
  size: number;
}

/**
 * What `<commit>:<path>` or a bare object id names: its id, type and size (one `cat-file --batch-check`).
 * Submodule entries name commits of another repository and come back undefined.
 */
export async function objectInfo(repoPath: string, spec: string): Promise<ObjectInfo | undefined> {
  return (await objectInfos(repoPath, [spec]))[0];
}

/** objectInfo for several names at once (one process). */
export async function objectInfos(repoPath: string, specs: string[]): Promise<Array<ObjectInfo | undefined>> {
  const usable = specs.filter((spec) => !unusable(spec));
  const found = new Map<string, ObjectInfo>();
  if (usable.length > 0) {
    const result = await runGit(['cat-file', '--batch-check'], {
      cwd: repoPath,
      input: usable.map((spec) => `${spec}\n`).join(''),
    });
    if (result.code !== 0) throw new Error(`git cat-file failed (${result.code}): ${result.stderr.trim()}`);
    const lines = result.stdout.toString().split('\n');
    usable.forEach((spec, index) => {
      const [id, type, size] = (lines[index] ?? '').split(' ');
      if (/^[0-9a-f]{40}$/.test(id) && /^\d+$/.test(size ?? '')) {
        found.set(spec, { id, type: type as ObjectType, size: Number(size) });
      }
    });
  }
  return specs.map((spec) => found.get(spec));
}

/** The blob a hex id (4–40 digits, as Rugged's lookup took) names, or undefined. */
export async function findBlob(repoPath: string, id: string): Promise<ObjectInfo | undefined> {
  if (!/^[0-9a-fA-F]{4,40}$/.test(id)) return undefined;
  const info = await objectInfo(repoPath, id.toLowerCase());
  return info?.type === 'blob' ? info : undefined;
}

/** A file (or symlink) at `path` in a commit's tree, or undefined (no such path, or a directory). */
export async function blobAtPath(
  repoPath: string,
  commit: string,
  path: string,
): Promise<ObjectInfo | undefined> {
  const info = await objectInfo(repoPath, `${commit}:${path}`);
  return info?.type === 'blob' ? info : undefined;
}

/** Whether `ancestor` is reachable from `descendant` (a fast-forward). */
export async function isAncestor(repoPath: string, ancestor: string, descendant: string): Promise<boolean> {
  const result = await runGit(['merge-base', '--is-ancestor', ancestor, descendant], { cwd: repoPath });
  return result.code === 0;
}
