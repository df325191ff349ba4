// File contents: raw by commit and path or by blob id (served as text/plain, streamed), and
// GET …/repository/files (the file's metadata, its content read as it streams, for either version), and
// v4's blame of a file.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import { blobContent } from '../git/blobs.ts';
import { blameRanges } from '../git/blame.ts';
import { readCommits, type Commit } from '../git/commits.ts';
import { lastCommitIdForPath } from '../git/commit-log.ts';
import { projectRepositoryPath, repositoryExists } from '../git/repository.ts';
import { blobAtPath, findBlob, type ObjectInfo } from '../git/revisions.ts';
import { treeAtPath, treeEntries } from '../git/trees.ts';
import { notFound } from '../errors.ts';
import { requireCommitId } from './repository-access.ts';
import type { ProjectRecord } from '../db/types.ts';

export interface RawContent {
  size: number;
  stream: Readable;
}

/** GitLab's Blob.find: a path from the root, leading slashes dropped. */
function treePath(filePath: string): string {
  return filePath.replace(/^\/+/, '');
}

/** GET …/repository/blobs/:sha?filepath= (also …/commits/:sha/blob). */
export async function blobAtRevision(
  deps: Deps,
  record: ProjectRecord,
  revision: string,
  filePath: string,
): Promise<RawContent> {
  const { repoPath, commitId } = await requireCommitId(deps, record, revision);
  const blob = await blobAtPath(repoPath, commitId, treePath(filePath));
  if (!blob) throw notFound('File');
  return { size: blob.size, stream: blobContent(repoPath, blob.id) };
}

/** GET …/repository/raw_blobs/:sha (v4: …/blobs/:sha/raw, and …/blobs/:sha with the id beside it). */
export async function rawBlob(
  deps: Deps,
  record: ProjectRecord,
  blobId: string,
): Promise<RawContent & { id: string }> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const blob = (await repositoryExists(repoPath)) ? await findBlob(repoPath, blobId) : undefined;
  if (!blob) throw notFound('Blob');
  return { id: blob.id, size: blob.size, stream: blobContent(repoPath, blob.id) };
}

/** A file of a commit as the files API shows it; its content is opened on demand (each call reads anew). */
export interface RepositoryFile {
  path: string;
  blob: ObjectInfo;
  ref: string;
  commitId: string;
  lastCommitId: string | null;
  content: () => Readable;
  /** What v4 adds: the content's SHA-256 (one streamed pass) and whether the file is executable. */
  details: () => Promise<{ sha256: string; executable: boolean }>;
}

async function sha256Of(content: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of content as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}

/** The mode of the entry `filePath` names in a commit (a file's, looked up in its directory). */
async function entryMode(repoPath: string, commitId: string, filePath: string): Promise<string | undefined> {
  const directory = path.posix.dirname(filePath);
  const tree = await treeAtPath(repoPath, commitId, directory === '.' ? '' : directory);
  if (!tree) return undefined;
  const name = path.posix.basename(filePath);
  for await (const entry of treeEntries(repoPath, tree)) if (entry.path === name) return entry.mode;
  return undefined;
}

/** GET …/repository/files?file_path=&ref= (v4: …/files/:file_path?ref=). */
export async function repositoryFile(
  deps: Deps,
  record: ProjectRecord,
  filePath: string,
  ref: string,
): Promise<RepositoryFile> {
  const { repoPath, commitId } = await requireCommitId(deps, record, ref);
  const path = treePath(filePath);
  const blob = await blobAtPath(repoPath, commitId, path);
  if (!blob) throw notFound('File');
  const lastCommitId = (await lastCommitIdForPath(repoPath, commitId, path)) ?? null;
  const content = () => blobContent(repoPath, blob.id);
  const details = async () => {
    const [sha256, mode] = await Promise.all([sha256Of(content()), entryMode(repoPath, commitId, path)]);
    return { sha256, executable: mode === '100755' };
  };
  return { path, blob, ref, commitId, lastCommitId, content, details };
}

/** GET …/repository/files/:file_path/blame?ref=: the file's lines in runs, each with its commit. */
export async function fileBlame(
  deps: Deps,
  record: ProjectRecord,
  filePath: string,
  ref: string,
): Promise<Array<{ commit: Commit; lines: string[] }>> {
  const { repoPath, commitId } = await requireCommitId(deps, record, ref);
  const path = treePath(filePath);
  if (!(await blobAtPath(repoPath, commitId, path))) throw notFound('File');
  const ranges = await blameRanges(repoPath, commitId, path);
  const commits = await readCommits(
    repoPath,
    ranges.map((range) => range.commitId),
  );
  return ranges.flatMap((range) => {
    const commit = commits.get(range.commitId);
    return commit ? [{ commit, lines: range.lines }] : [];
  });
}
