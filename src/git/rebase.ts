// Rebasing a branch without a work tree: each commit of `head` that `onto` lacks (merge commits left
// out, as `git rebase` leaves them) is replayed on the new base by a three-way merge-tree whose base is
// the commit's parent. This git (2.39) has no `merge-tree --merge-base`, so the merge base is made: a
// parentless commit of the parent's tree, under one commit of the new base's tree and one of the
// commit's own; their merge is the cherry-pick. A commit whose parent is already the new base is kept
// as it is; one that brings nothing new is dropped. Nothing here moves a ref.
import { git } from './exec.ts';
import { mergeTree, writeTreeCommit } from './merges.ts';
import type { Signature } from './commit-writer.ts';

export type Rebased = { clean: true; head: string } | { clean: false; conflicts: string[] };

interface Replayed {
  id: string;
  tree: string;
  parent: string | undefined;
  author: Signature;
  /** `<seconds> <offset>`, kept on the new commit. */
  authorDate: string;
  message: string;
}

/** The commits to replay, oldest first, with what a new commit keeps of each. */
async function commitsToReplay(repoPath: string, onto: string, head: string): Promise<Replayed[]> {
  const out = await git(
    [
      'log',
      '--reverse',
      '--topo-order',
      '--no-merges',
      '--date=raw',
      '--format=%H%x00%T%x00%P%x00%an%x00%ae%x00%ad%x00%B%x01',
      head,
      `^${onto}`,
      '--',
    ],
    { cwd: repoPath },
  );
  return out
    .split('\x01')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record !== '')
    .map((record) => {
      const [id, tree, parents, name, email, date, message] = record.split('\0') as [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      return {
        id,
        tree,
        parent: parents.split(' ').filter((parent) => parent !== '')[0],
        author: { name, email },
        authorDate: date,
        message,
      };
    });
}

async function treeOf(repoPath: string, commit: string): Promise<string> {
  return (await git(['rev-parse', `${commit}^{tree}`], { cwd: repoPath })).trim();
}

/** Replays `head`'s own commits on `onto` as `committer`; the new head, or the paths that conflict. */
export async function rebaseCommits(
  repoPath: string,
  onto: string,
  head: string,
  committer: Signature,
): Promise<Rebased> {
  let base = onto;
  let baseTree = await treeOf(repoPath, onto);
  for (const commit of await commitsToReplay(repoPath, onto, head)) {
    if (commit.parent === base) {
      base = commit.id;
      baseTree = commit.tree;
      continue;
    }
    const parentTree = commit.parent ? await treeOf(repoPath, commit.parent) : undefined;
    let tree: string;
    if (parentTree === baseTree) {
      tree = commit.tree;
    } else {
      const made = (treeId: string, parents: string[]) =>
        writeTreeCommit(repoPath, { tree: treeId, parents, message: 'rebase', author: committer, committer });
      const mergeBase = await made(
        parentTree ??
          (await git(['hash-object', '-t', 'tree', '-w', '--stdin'], { cwd: repoPath, input: '' })).trim(),
        [],
      );
      const [ours, theirs] = await Promise.all([made(baseTree, [mergeBase]), made(commit.tree, [mergeBase])]);
      const merged = await mergeTree(repoPath, ours, theirs);
      if (!merged.clean) return { clean: false, conflicts: merged.conflicts };
      tree = merged.tree;
    }
    // Already in the new base: `git rebase` drops a commit that becomes empty.
    if (tree === baseTree) continue;
    base = await writeTreeCommit(repoPath, {
      tree,
      parents: [base],
      message: commit.message,
      author: commit.author,
      authorDate: commit.authorDate,
      committer,
    });
    baseTree = tree;
  }
  return { clean: true, head: base };
}

export type Reverted = { clean: true; tree: string } | { clean: false; empty: boolean };

/**
 * The tree of reverting `commit` (its first parent's side, git's mainline 1 for a merge) on `onto`,
 * by the same made merge base as a replay: base the commit's tree, ours `onto`'s, theirs the parent's.
 * Not clean when it conflicts, or (`empty`) when it would change nothing. Nothing here moves a ref.
 */
export async function revertTree(
  repoPath: string,
  onto: string,
  commit: string,
  committer: Signature,
): Promise<Reverted> {
  const parent = (await git(['rev-list', '--parents', '-n', '1', commit], { cwd: repoPath }))
    .trim()
    .split(' ')[1];
  const parentTree = parent
    ? await treeOf(repoPath, parent)
    : (await git(['hash-object', '-t', 'tree', '-w', '--stdin'], { cwd: repoPath, input: '' })).trim();
  const ontoTree = await treeOf(repoPath, onto);
  const made = (treeId: string, parents: string[]) =>
    writeTreeCommit(repoPath, { tree: treeId, parents, message: 'revert', author: committer, committer });
  const mergeBase = await made(await treeOf(repoPath, commit), []);
  const [ours, theirs] = await Promise.all([made(ontoTree, [mergeBase]), made(parentTree, [mergeBase])]);
  const merged = await mergeTree(repoPath, ours, theirs);
  if (!merged.clean) return { clean: false, empty: false };
  if (merged.tree === ontoTree) return { clean: false, empty: true };
  return { clean: true, tree: merged.tree };
}
