// GET …/repository/tree: a directory of a commit, directories first, then files, then submodules
// (GitLab's sorted_entries), streamed. Each group is its own `ls-tree` pass, so the order costs no
// buffering; the submodule pass runs only when the file pass saw one.
import { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import { treeAtPath, treeEntries, type TreeEntry } from '../git/trees.ts';
import { presentTreeEntry } from '../presenters/api-v3/tree.ts';
import { jsonArrayChunks } from '../presenters/json-stream.ts';
import { defaultRef, requireCommitId } from './repository-access.ts';
import type { ProjectRecord } from '../db/types.ts';

export interface TreeQuery {
  ref?: string;
  path?: string;
  recursive: boolean;
}

export async function treeListing(deps: Deps, record: ProjectRecord, query: TreeQuery): Promise<Readable> {
  const { repoPath, commitId } = await requireCommitId(deps, record, query.ref ?? defaultRef(record), 'Tree');
  // A path that is no directory lists nothing.
  const tree = await treeAtPath(repoPath, commitId, query.path ?? '');
  async function* sorted(): AsyncGenerator<ReturnType<typeof presentTreeEntry>> {
    if (!tree) return;
    const options = { recursive: query.recursive };
    const present = (entry: TreeEntry) => presentTreeEntry(entry, query.recursive);
    // `ls-tree -d` lists submodules along with directories.
    for await (const entry of treeEntries(repoPath, tree, { ...options, onlyTrees: true })) {
      if (entry.type === 'tree') yield present(entry);
    }
    let submodules = false;
    for await (const entry of treeEntries(repoPath, tree, options)) {
      if (entry.type === 'blob') yield present(entry);
      else if (entry.type === 'commit') submodules = true;
    }
    if (!submodules) return;
    for await (const entry of treeEntries(repoPath, tree, options)) {
      if (entry.type === 'commit') yield present(entry);
    }
  }
  return Readable.from(jsonArrayChunks(sorted()));
}
