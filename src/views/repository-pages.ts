// What the repository pages read (project page, tree, blob, raw, commits, commit, branches, tags), through
// the same git readers as the API's repository views. Each page costs a fixed number of git calls
// whatever the size of the directory, file or diff: refs (2), the commit (1), then one or two per page.
import { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import { refNames } from '../git/refs.ts';
import { repositoryExists, repositoryPath } from '../git/repository.ts';
import { blobAtPath, resolveCommit } from '../git/revisions.ts';
import { treeAtPath, treeEntries, type TreeEntry } from '../git/trees.ts';
import { blobContent, readFileAtCommit } from '../git/blobs.ts';
import { collectCommits, lastCommitIdForPath } from '../git/commit-log.ts';
import { readCommits, type Commit } from '../git/commits.ts';
import { diffTrees, EMPTY_TREE, rawCommitPatch, type FileDiff } from '../git/diffs.ts';
import { COMMIT_DIFF_LIMITS } from './commit-views.ts';
import { defaultRef } from './repository-access.ts';
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
}

/** The branches and tags of a project (none without a repository). */
async function projectRefNames(deps: Deps, record: ProjectRecord) {
  const repoPath = repositoryPath(deps.config.dataDir, record.namespace.path, record.project.path);
  if (!(await repositoryExists(repoPath))) return { repoPath, branches: [], tags: [], exists: false };
  const [branches, tags] = await Promise.all([refNames(repoPath, 'heads'), refNames(repoPath, 'tags')]);
  return { repoPath, branches, tags, exists: true };
}

/**
 * GitLab's ref-and-path split of `<ref>/<path>` in tree, blob, raw and commits URLs: the longest leading
 * run of segments that names a branch or tag, else the first segment (a commit id). Undefined when that
 * names no commit.
 */
export async function resolveRefPath(
  deps: Deps,
  record: ProjectRecord,
  rest: string,
): Promise<RefPoint | undefined> {
  const { repoPath, branches, tags, exists } = await projectRefNames(deps, record);
  if (!exists) return undefined;
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
  const commitId = await resolveCommit(repoPath, ref);
  if (!commitId) return undefined;
  return { repoPath, ref, commitId, path, branches, tags };
}

/** The default branch's point, for the project page; undefined for an empty repository. */
export async function defaultRefPoint(deps: Deps, record: ProjectRecord): Promise<RefPoint | undefined> {
  return resolveRefPath(deps, record, defaultRef(record));
}

export interface DirectoryListing {
  entries: TreeEntry[];
  lastCommit: Commit | undefined;
}

/** A directory, directories first then files then submodules (each by name), with its last commit. */
export async function directoryListing(point: RefPoint): Promise<DirectoryListing | undefined> {
  const tree = await treeAtPath(point.repoPath, point.commitId, point.path);
  if (!tree) return undefined;
  const entries: TreeEntry[] = [];
  const [, lastId] = await Promise.all([
    (async () => {
      for await (const entry of treeEntries(point.repoPath, tree)) entries.push(entry);
    })(),
    point.path === ''
      ? Promise.resolve(point.commitId)
      : lastCommitIdForPath(point.repoPath, point.commitId, point.path),
  ]);
  const order = { tree: 0, blob: 1, commit: 2 };
  entries.sort((a, b) => order[a.type] - order[b.type] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const lastCommit = lastId ? (await readCommits(point.repoPath, [lastId])).get(lastId) : undefined;
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
  const info = await blobAtPath(point.repoPath, point.commitId, point.path);
  if (!info) return undefined;
  if (info.size > BLOB_VIEW_MAX_BYTES) return { kind: 'too-large', id: info.id, size: info.size };
  const read = await readFileAtCommit(point.repoPath, point.commitId, point.path, BLOB_VIEW_MAX_BYTES);
  if (!read?.content) return { kind: 'too-large', id: info.id, size: info.size };
  if (isBinary(read.content)) return { kind: 'binary', id: info.id, size: info.size };
  return { kind: 'text', id: info.id, size: info.size, content: read.content.toString('utf8') };
}

/** git's own test: a NUL byte in the first 8,000 bytes. */
function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

/** A file's bytes for the raw route, with its first chunk read so the caller can tell text from binary. */
export async function rawFile(
  point: RefPoint,
): Promise<{ size: number; binary: boolean; stream: Readable } | undefined> {
  const info = await blobAtPath(point.repoPath, point.commitId, point.path);
  if (!info) return undefined;
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
  const repoPath = repositoryPath(deps.config.dataDir, record.namespace.path, record.project.path);
  if (!/^[0-9a-fA-F]{4,40}$/.test(sha) || !(await repositoryExists(repoPath))) return undefined;
  const commitId = await resolveCommit(repoPath, sha);
  if (!commitId) return undefined;
  const commit = (await readCommits(repoPath, [commitId])).get(commitId);
  if (!commit) return undefined;
  const { diffs, overflow } = await diffTrees(
    repoPath,
    commit.parentIds[0] ?? EMPTY_TREE,
    commitId,
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
  const repoPath = repositoryPath(deps.config.dataDir, record.namespace.path, record.project.path);
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
  const read = await readFileAtCommit(point.repoPath, point.commitId, path, maxBytes);
  return read?.content?.toString('utf8');
}
