// TreeObject as v4 shows it: every entry carries its path from the repository's root.
import type { TreeEntry } from '../../git/trees.ts';

/** `directory`: the listed directory's path (empty for the root). */
export function presentTreeObject(entry: TreeEntry, directory: string) {
  const slash = entry.path.lastIndexOf('/');
  const root = directory.replace(/^\/+|\/+$/g, '');
  return {
    id: entry.id,
    name: entry.path.slice(slash + 1),
    type: entry.type,
    path: root === '' ? entry.path : `${root}/${entry.path}`,
    mode: entry.mode.padStart(6, '0'),
  };
}
