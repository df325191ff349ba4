// RepoTreeObject: one entry of a directory listing. A recursive listing (not in 8.13, as later GitLab
// had it) adds the entry's path, since names alone repeat across directories.
import type { TreeEntry } from '../../git/trees.ts';

export function presentTreeEntry(entry: TreeEntry, recursive: boolean) {
  const slash = entry.path.lastIndexOf('/');
  return {
    id: entry.id,
    name: entry.path.slice(slash + 1),
    type: entry.type,
    ...(recursive ? { path: entry.path } : {}),
    mode: entry.mode.padStart(6, '0'),
  };
}
