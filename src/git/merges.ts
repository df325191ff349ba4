// Merges without a work tree (GitLab 8.13's Repository#merge did it in a Rugged in-memory index):
// `git merge-tree --write-tree` computes the merged tree, or names the conflicting files, and
// `commit-tree` makes a commit with parents [target, source], so there is always a merge commit, even
// where a fast-forward was possible. Nothing here moves a ref: until the caller moves one with
// compare-and-swap the new objects are unreferenced, and a conflict writes nothing anyone can see.
import { git, runGit } from './exec.ts';
import type { Signature } from './commit-writer.ts';

export type MergeTree = { clean: true; tree: string } | { clean: false; conflicts: string[] };

/**
 * The tree of merging `source` into `target` (both commit ids), or the paths that conflict. Exit 1 is
 * git's answer for a conflict; anything else it could not do (an unknown commit) throws.
 */
export async function mergeTree(repoPath: string, target: string, source: string): Promise<MergeTree> {
  const result = await runGit(
    ['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', target, source],
    { cwd: repoPath },
  );
  const fields = result.stdout.toString().split('\0');
  if (result.code === 0) return { clean: true, tree: fields[0]!.trim() };
  // Exit 1 is also git's answer for an object it cannot merge; only a conflict prints a tree first.
  if (result.code === 1 && /^[0-9a-f]{40,64}$/.test(fields[0]!.trim())) {
    // The tree id (of the tree with conflict markers), then the conflicted paths, then an empty field.
    const conflicts = [...new Set(fields.slice(1).filter((name) => name !== ''))];
    return { clean: false, conflicts };
  }
  throw new Error(`git merge-tree failed (${result.code}): ${result.stderr.trim()}`);
}

/** Repository#can_be_merged?: whether merging `source` into `target` has no conflicts. */
export async function canBeMerged(repoPath: string, target: string, source: string): Promise<boolean> {
  return (await mergeTree(repoPath, target, source)).clean;
}

export interface MergeCommit {
  target: string;
  source: string;
  message: string;
  /** Author and committer (GitLab: the merging user for both). */
  author: Signature;
  /** Seconds since the epoch; now by default. */
  time?: number;
}

/**
 * Writes the two-parent merge commit and returns its id, or null when the merge conflicts. `merged` is
 * mergeTree's answer for these same two commits when the caller has it already.
 */
export async function writeMergeCommit(
  repoPath: string,
  merge: MergeCommit,
  merged: MergeTree | undefined = undefined,
): Promise<string | null> {
  merged ??= await mergeTree(repoPath, merge.target, merge.source);
  if (!merged.clean) return null;
  return writeTreeCommit(repoPath, {
    tree: merged.tree,
    parents: [merge.target, merge.source],
    message: merge.message,
    author: merge.author,
    committer: merge.author,
    ...(merge.time !== undefined ? { time: merge.time } : {}),
  });
}

export interface TreeCommit {
  tree: string;
  parents: string[];
  message: string;
  author: Signature;
  committer: Signature;
  /** Seconds since the epoch, for both dates; now by default. */
  time?: number;
  /** The author's own date as git prints it (`<seconds> <offset>`), kept when a commit is replayed. */
  authorDate?: string;
}

/** `commit-tree`: a commit of an existing tree on these parents; returns its id. */
export async function writeTreeCommit(repoPath: string, commit: TreeCommit): Promise<string> {
  const time = `${commit.time ?? Math.floor(Date.now() / 1000)} +0000`;
  const id = await git(
    ['commit-tree', commit.tree, ...commit.parents.flatMap((parent) => ['-p', parent]), '-F', '-'],
    {
      cwd: repoPath,
      input: commit.message,
      env: {
        GIT_AUTHOR_NAME: commit.author.name,
        GIT_AUTHOR_EMAIL: commit.author.email,
        GIT_AUTHOR_DATE: commit.authorDate ?? time,
        GIT_COMMITTER_NAME: commit.committer.name,
        GIT_COMMITTER_EMAIL: commit.committer.email,
        GIT_COMMITTER_DATE: time,
      },
    },
  );
  return id.trim();
}

/** MergeRequest#merge_commit_message: 8.13's default message. */
export function defaultMergeMessage(mr: {
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description: string | null;
  iid: number;
}): string {
  const blocks = [`Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'`, mr.title];
  if (mr.description && mr.description.trim() !== '') blocks.push(mr.description);
  blocks.push(`See merge request !${mr.iid}`);
  return blocks.join('\n\n');
}

/**
 * Copies a fork's branch into the target repository under `ref` (GitLab's refs/merge-requests/<iid>/head),
 * so the target can merge, list and diff the source's commits. Returns the fetched head, or undefined
 * when the source has no such branch.
 */
export async function fetchBranchInto(
  targetRepo: string,
  sourceRepo: string,
  branch: string,
  ref: string,
): Promise<string | undefined> {
  const fetched = await runGit(
    ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', sourceRepo, `+refs/heads/${branch}:${ref}`],
    { cwd: targetRepo },
  );
  if (fetched.code !== 0) return undefined;
  const head = await runGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: targetRepo });
  return head.code === 0 ? head.stdout.toString().trim() : undefined;
}

/** Whether the commit exists in the repository. */
export async function hasCommit(repoPath: string, sha: string): Promise<boolean> {
  const result = await runGit(['cat-file', '-e', `${sha}^{commit}`], { cwd: repoPath });
  return result.code === 0;
}

/** How many commits `head` has that `target` lacks (0: the MR has no commits, 8.13's `broken?`). */
export async function commitsAheadCount(repoPath: string, target: string, head: string): Promise<number> {
  return Number((await git(['rev-list', '--count', head, `^${target}`], { cwd: repoPath })).trim());
}
