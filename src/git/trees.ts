// Directory listings from `git ls-tree -z`, streamed entry by entry.
import { objectInfo } from './revisions.ts';
import { gitRecords } from './streams.ts';

export type TreeEntryType = 'tree' | 'blob' | 'commit';

export interface TreeEntry {
  /** Octal file mode as git prints it (`100644`, `040000`, `160000`). */
  mode: string;
  type: TreeEntryType;
  id: string;
  /** Path from the listed directory (just the name unless recursive). */
  path: string;
}

/**
 * The tree of directory `path` in a commit, or undefined when no directory has that path. GitLab walked
 * the path segment by segment, so empty, `.` and `..` segments name nothing.
 */
export async function treeAtPath(
  repoPath: string,
  commit: string,
  path: string,
): Promise<string | undefined> {
  const spec = treeSpec(commit, path);
  const info = spec === undefined ? undefined : await objectInfo(repoPath, spec);
  return info?.type === 'tree' ? info.id : undefined;
}

/** The name of directory `path` of a commit for git (`<commit>^{tree}`, `<commit>:<path>`), if it may name one. */
export function treeSpec(commit: string, path: string): string | undefined {
  const segments = path.split('/');
  while (segments.length > 0 && segments[0] === '') segments.shift();
  while (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  if (
    segments.some(
      (segment) => segment === '' || segment === '.' || segment === '..' || /[\0\n]/.test(segment),
    )
  ) {
    return undefined;
  }
  return segments.length === 0 ? `${commit}^{tree}` : `${commit}:${segments.join('/')}`;
}

/**
 * The entries of a tree object as `cat-file` gives it ("<mode> <name>\0<20-byte id>" each), as ls-tree
 * would list them: modes padded to six digits, names as UTF-8.
 */
export function parseTreeObject(body: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let position = 0;
  while (position < body.length) {
    const space = body.indexOf(32, position);
    const nul = body.indexOf(0, space + 1);
    if (space === -1 || nul === -1 || nul + 21 > body.length) throw new Error('malformed tree object');
    const mode = body.subarray(position, space).toString('latin1').padStart(6, '0');
    const type: TreeEntryType = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({
      mode,
      type,
      id: body.subarray(nul + 1, nul + 21).toString('hex'),
      path: body.subarray(space + 1, nul).toString('utf8'),
    });
    position = nul + 21;
  }
  return entries;
}

/**
 * The entries of a tree, in git's order: only directories with `onlyTrees`; with `recursive`, the whole
 * subtree (directories included, before their contents).
 */
export async function* treeEntries(
  repoPath: string,
  tree: string,
  options: { recursive?: boolean; onlyTrees?: boolean } = {},
): AsyncGenerator<TreeEntry> {
  const args = ['ls-tree', '-z', '--full-tree'];
  if (options.recursive) args.push('-r', '-t');
  if (options.onlyTrees) args.push('-d');
  for await (const record of gitRecords([...args, tree], { cwd: repoPath, separator: 0 })) {
    const text = record.toString('utf8');
    const tab = text.indexOf('\t');
    const [mode, type, id] = text.slice(0, tab).split(' ');
    yield { mode, type: type as TreeEntryType, id, path: text.slice(tab + 1) };
  }
}
