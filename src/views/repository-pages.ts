// What the repository pages read (project page, tree, blob, raw, commits, commit, branches, tags), through
// the same git readers as the API's repository views. Each page costs a fixed number of git processes
// whatever the size of the directory, file or diff: the refs come from the ref files (no process), and
// every object the page reads (commit, directory, file, README) from one `cat-file --batch-command`; a
// directory's last commit is one `rev-list` (remembered, since a commit's history never changes), the
// history one `rev-list` into `cat-file`, a diff one `diff-tree`.
import { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import { branchCommitFromRefs, readAllRefs } from '../git/refs.ts';
import { projectRepositoryPath, repositoryExists } from '../git/repository.ts';
import { parseTreeObject, treeSpec, type TreeEntry } from '../git/trees.ts';
import { blobContent } from '../git/blobs.ts';
import { collectCommits, lastCommitIdForPath } from '../git/commit-log.ts';
import { parseCommitObject, type Commit } from '../git/commits.ts';
import { diffTrees, EMPTY_TREE, mergeBase, rawCommitPatch, type FileDiff } from '../git/diffs.ts';
import { resolveCommit } from '../git/revisions.ts';
import { withObjectReader, type ObjectReader } from '../git/object-reader.ts';
import { BoundedMap } from '../lib/bounded-map.ts';
import { COMMIT_DIFF_LIMITS } from './commit-views.ts';
import { defaultRef, findCommitId } from './repository-access.ts';
import type { ProjectRecord } from '../db/types.ts';

/** A blob page shows files up to this size; larger ones are offered as a download. */
const BLOB_VIEW_MAX_BYTES = 1024 * 1024;
const COMMITS_PER_PAGE = 40;

export interface RefPoint {
  repoPath: string;
  ref: string;
  commitId: string;
  /** The rest of the URL after the ref: a path in the tree (no leading or trailing slash). */
  path: string;
  branches: string[];
  tags: string[];
  /** The page's one reader of objects (open while the page is being read). */
  objects: ObjectReader;
}

const namesUnder = (refs: Map<string, string>, prefix: string) =>
  [...refs.keys()].filter((name) => name.startsWith(prefix)).map((name) => name.slice(prefix.length));

/**
 * Reads a page at `<ref>/<path>` (tree, blob, raw and commits URLs) with GitLab's split: the longest
 * leading run of segments that names a branch or tag, else the first segment (a commit id). `use` runs
 * with the point and the page's object reader, closed afterwards; undefined when no commit is named.
 */
export async function atRefPath<T>(
  deps: Deps,
  record: ProjectRecord,
  rest: string,
  use: (point: RefPoint) => Promise<T>,
): Promise<T | undefined> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  if (!(await repositoryExists(repoPath))) return undefined;
  const refs = await readAllRefs(repoPath);
  const branches = namesUnder(refs, 'refs/heads/');
  const tags = namesUnder(refs, 'refs/tags/');
  const segments = rest.split('/');
  const known = new Set([...branches, ...tags]);
  let take = 1;
  for (let i = segments.length; i >= 1; i--) {
    if (known.has(segments.slice(0, i).join('/'))) {
      take = i;
      break;
    }
  }
  const ref = segments.slice(0, take).join('/');
  if (ref === '' || ref.startsWith('-')) return undefined;
  const path = segments
    .slice(take)
    .filter((segment) => segment !== '')
    .join('/');
  return withObjectReader(repoPath, async (objects) => {
    const commitId =
      branchCommitFromRefs(refs, ref) ??
      (await objects.info(`${ref}^{commit}`).then((info) => (info?.type === 'commit' ? info.id : undefined)));
    if (!commitId) return undefined;
    return use({ repoPath, ref, commitId, path, branches, tags, objects });
  });
}

/** The default branch's point, for the project page; undefined for an empty repository. */
export function atDefaultRef<T>(
  deps: Deps,
  record: ProjectRecord,
  use: (point: RefPoint) => Promise<T>,
): Promise<T | undefined> {
  return atRefPath(deps, record, defaultRef(record), use);
}

async function readCommit(objects: ObjectReader, spec: string): Promise<Commit | undefined> {
  const found = await objects.contents(spec);
  return found?.type === 'commit' ? parseCommitObject(found.id, found.body) : undefined;
}

/** The newest commit that changed a path, by repository, commit and path: history never changes. */
const lastCommitIds = new BoundedMap<string, string | undefined>(2000);

async function lastCommitIdOf(point: RefPoint): Promise<string | undefined> {
  if (point.path === '') return point.commitId;
  const key = `${point.repoPath}\0${point.commitId}\0${point.path}`;
  if (lastCommitIds.has(key)) return lastCommitIds.get(key);
  const id = await lastCommitIdForPath(point.repoPath, point.commitId, point.path);
  lastCommitIds.set(key, id);
  return id;
}

export interface DirectoryListing {
  entries: TreeEntry[];
  lastCommit: Commit | undefined;
}

/** A directory, directories first then files then submodules (each by name), with its last commit. */
export async function directoryListing(point: RefPoint): Promise<DirectoryListing | undefined> {
  const spec = treeSpec(point.commitId, point.path);
  const [tree, lastId] = await Promise.all([
    spec === undefined ? undefined : point.objects.contents(spec),
    lastCommitIdOf(point),
  ]);
  if (tree?.type !== 'tree') return undefined;
  const entries = parseTreeObject(tree.body);
  const order = { tree: 0, blob: 1, commit: 2 };
  entries.sort((a, b) => order[a.type] - order[b.type] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const lastCommit = lastId ? await readCommit(point.objects, lastId) : undefined;
  return { entries, lastCommit };
}

/** The README GitLab showed on a project page: the first README* file of the root, Markdown first. */
export function findReadme(entries: TreeEntry[]): TreeEntry | undefined {
  const readmes = entries.filter(
    (entry) => entry.type === 'blob' && /^readme(\.[a-z0-9]+)?$/i.test(entry.path),
  );
  return readmes.find((entry) => /\.(md|markdown|mkd)$/i.test(entry.path)) ?? readmes[0];
}

export type BlobView =
  | { kind: 'text'; id: string; size: number; content: string }
  | { kind: 'binary' | 'too-large'; id: string; size: number };

/** A file at a point: its text when it is text and small enough, else what the page offers instead. */
export async function blobView(point: RefPoint): Promise<BlobView | undefined> {
  const info = await point.objects.info(`${point.commitId}:${point.path}`);
  if (info?.type !== 'blob') return undefined;
  if (info.size > BLOB_VIEW_MAX_BYTES) return { kind: 'too-large', id: info.id, size: info.size };
  const read = await point.objects.contents(info.id);
  if (!read) return undefined;
  if (isBinary(read.body)) return { kind: 'binary', id: info.id, size: info.size };
  return { kind: 'text', id: info.id, size: info.size, content: read.body.toString('utf8') };
}

/** Whether the point names a directory (the root included): a blob URL of one leads to its tree. */
/** What the point's path names at its commit: 'tree', 'blob', 'commit' (a submodule) or nothing. */
export async function objectTypeAt(point: RefPoint): Promise<string | undefined> {
  if (point.path === '') return 'tree';
  const info = await point.objects.info(`${point.commitId}:${point.path}`);
  return info?.type;
}

/** git's own test: a NUL byte in the first 8,000 bytes. */
function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

/** A file's bytes for the raw route, with its first chunk read so the caller can tell text from binary. */
export async function rawFile(
  point: RefPoint,
): Promise<{ size: number; binary: boolean; stream: Readable } | undefined> {
  const info = await point.objects.info(`${point.commitId}:${point.path}`);
  if (info?.type !== 'blob') return undefined;
  const source = blobContent(point.repoPath, info.id);
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head: Buffer = first.done ? Buffer.alloc(0) : (first.value as Buffer);
  async function* all() {
    if (head.length > 0) yield head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value as Buffer;
    }
  }
  return { size: info.size, binary: isBinary(head), stream: Readable.from(all(), { objectMode: false }) };
}

/** One page of history from a point, optionally of one path; one more commit read to know of a next page. */
export async function commitHistory(point: RefPoint, page: number) {
  const args = [
    `--skip=${(page - 1) * COMMITS_PER_PAGE}`,
    `--max-count=${COMMITS_PER_PAGE + 1}`,
    point.commitId,
    '--',
  ];
  // The path is taken literally, never as pathspec magic.
  if (point.path !== '') args.push(`:(literal)${point.path}`);
  const commits = await collectCommits(point.repoPath, args);
  return { commits: commits.slice(0, COMMITS_PER_PAGE), hasNext: commits.length > COMMITS_PER_PAGE };
}

export interface CommitWithDiff {
  commit: Commit;
  diffs: Array<FileDiff & { additions: number; deletions: number }>;
  overflow: boolean;
}

/** A commit and its diff against its first parent, within the API's diff limits, with per-file stats. */
export async function commitWithDiff(
  deps: Deps,
  record: ProjectRecord,
  sha: string,
): Promise<CommitWithDiff | undefined> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  if (!/^[0-9a-fA-F]{4,40}$/.test(sha) || !(await repositoryExists(repoPath))) return undefined;
  const commit = await withObjectReader(repoPath, (objects) => readCommit(objects, `${sha}^{commit}`));
  if (!commit) return undefined;
  const { diffs, overflow } = await diffTrees(
    repoPath,
    commit.parentIds[0] ?? EMPTY_TREE,
    commit.id,
    COMMIT_DIFF_LIMITS,
  );
  return {
    commit,
    overflow: overflow || diffs.some((diff) => diff.tooLarge),
    diffs: withLineStats(diffs),
  };
}

/** Each file's diff with its added and removed line counts, as the diff pages show them. */
export function withLineStats<T extends { diff: string }>(diffs: T[]) {
  return diffs.map((diff) => ({ ...diff, ...lineStats(diff.diff) }));
}

function lineStats(patch: string): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const line of patch.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++ ')) additions++;
    else if (line.startsWith('-') && !line.startsWith('--- ')) deletions++;
  }
  return { additions, deletions };
}

/** The raw .diff or .patch of a commit. */
export async function commitPatch(deps: Deps, record: ProjectRecord, sha: string, form: 'diff' | 'patch') {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  if (!/^[0-9a-fA-F]{4,40}$/.test(sha) || !(await repositoryExists(repoPath))) return undefined;
  const commitId = await resolveCommit(repoPath, sha);
  return commitId ? rawCommitPatch(repoPath, commitId, form) : undefined;
}

/** A small file's text at a point (a README), undefined when it is missing or over `maxBytes`. */
export async function smallFileText(
  point: RefPoint,
  path: string,
  maxBytes: number,
): Promise<string | undefined> {
  const info = await point.objects.info(`${point.commitId}:${path}`);
  if (info?.type !== 'blob' || info.size > maxBytes) return undefined;
  return (await point.objects.contents(info.id))?.body.toString('utf8');
}

/** The compare page lists this many commits; the rest are counted as "and more". */
const COMPARE_COMMITS_SHOWN = 100;

export interface RefComparison {
  /** Newest first, at most COMPARE_COMMITS_SHOWN. */
  commits: Commit[];
  moreCommits: boolean;
  diffs: Array<FileDiff & { additions: number; deletions: number }>;
  overflow: boolean;
}

/**
 * What `to` has that `from` lacks, as the compare page shows it: its commits (one `rev-list`) and the
 * diff from their merge base to `to` (one `diff-tree`, within the commit page's limits). Undefined when
 * either names no commit.
 */
export async function compareForPage(
  deps: Deps,
  record: ProjectRecord,
  from: string,
  to: string,
): Promise<RefComparison | undefined> {
  if (from.startsWith('-') || to.startsWith('-')) return undefined;
  const [base, head] = await Promise.all([findCommitId(deps, record, from), findCommitId(deps, record, to)]);
  if (!base || !head) return undefined;
  const repoPath = head.repoPath;
  const [commits, fork] = await Promise.all([
    collectCommits(repoPath, [
      '--date-order',
      `--max-count=${COMPARE_COMMITS_SHOWN + 1}`,
      `^${base.commitId}`,
      head.commitId,
      '--',
    ]),
    mergeBase(repoPath, base.commitId, head.commitId),
  ]);
  const { diffs, overflow } =
    base.commitId === head.commitId
      ? { diffs: [], overflow: false }
      : await diffTrees(repoPath, fork ?? EMPTY_TREE, head.commitId, COMMIT_DIFF_LIMITS);
  return {
    commits: commits.slice(0, COMPARE_COMMITS_SHOWN),
    moreCommits: commits.length > COMPARE_COMMITS_SHOWN,
    diffs: withLineStats(diffs),
    overflow: overflow || diffs.some((diff) => diff.tooLarge),
  };
}
