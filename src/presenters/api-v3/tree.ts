// RepoTreeObject: one entry of a directory listing. A recursive listing (not in 8.13, as later GitLab
// had it) adds the entry's path, since names alone repeat across directories.
import type { TreeEntry } from '../../git/trees.ts';
import { jsonArrayChunks } from '../json-stream.ts';

function presentTreeEntry(entry: TreeEntry, recursive: boolean) {
  const slash = entry.path.lastIndexOf('/');
  return {
    id: entry.id,
    name: entry.path.slice(slash + 1),
    type: entry.type,
    ...(recursive ? { path: entry.path } : {}),
    mode: entry.mode.padStart(6, '0'),
  };
}

/** The whole listing as one JSON array, written entry by entry as git lists them. */
export function treeJsonChunks(
  entries: AsyncIterable<TreeEntry>,
  recursive: boolean,
): AsyncGenerator<string> {
  async function* presented() {
    for await (const entry of entries) yield presentTreeEntry(entry, recursive);
  }
  return jsonArrayChunks(presented());
}
