// GET …/repository/tree: a directory of a commit, directories first, then files, then submodules
// (GitLab's sorted_entries), as entries streamed for either version's presenter. Each group is its own
// `ls-tree` pass, so the order costs no buffering; the submodule pass runs only when the file pass saw one.
import type { Deps } from '../deps.ts';
import { treeAtPath, treeEntries, type TreeEntry } from '../git/trees.ts';
import type { Page } from '../http/pagination.ts';
import { defaultRef, requireCommitId } from './repository-access.ts';
import type { ProjectRecord } from '../db/types.ts';

export interface TreeQuery {
  ref?: string;
  path?: string;
  recursive: boolean;
}

/** The sorted entries of the directory (an unknown ref is `404 Tree Not Found`, checked before any entry). */
export async function treeListing(
  deps: Deps,
  record: ProjectRecord,
  query: TreeQuery,
): Promise<AsyncIterable<TreeEntry>> {
  const { repoPath, commitId } = await requireCommitId(deps, record, query.ref ?? defaultRef(record), 'Tree');
  // A path that is no directory lists nothing.
  const tree = await treeAtPath(repoPath, commitId, query.path ?? '');
  async function* sorted(): AsyncGenerator<TreeEntry> {
    if (!tree) return;
    const options = { recursive: query.recursive };
    // `ls-tree -d` lists submodules along with directories.
    for await (const entry of treeEntries(repoPath, tree, { ...options, onlyTrees: true })) {
      if (entry.type === 'tree') yield entry;
    }
    let submodules = false;
    for await (const entry of treeEntries(repoPath, tree, options)) {
      if (entry.type === 'blob') yield entry;
      else if (entry.type === 'commit') submodules = true;
    }
    if (!submodules) return;
    for await (const entry of treeEntries(repoPath, tree, options)) {
      if (entry.type === 'commit') yield entry;
    }
  }
  return sorted();
}

/**
 * One page of a listing that streams, and how long the whole listing is (v4 pages trees with a total):
 * entries past the page are counted, not kept.
 */
export async function pageOfListing<T>(
  items: AsyncIterable<T>,
  page: Page,
): Promise<{ rows: T[]; total: number }> {
  const rows: T[] = [];
  let total = 0;
  for await (const item of items) {
    if (total >= page.offset && rows.length < page.limit) rows.push(item);
    total++;
  }
  return { rows, total };
}
