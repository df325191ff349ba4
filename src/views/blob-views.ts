// File contents: raw by commit and path or by blob id (served as text/plain, streamed), and
// GET …/repository/files (the file's metadata with its content base64-encoded as it streams).
import { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import { blobContent } from '../git/blobs.ts';
import { lastCommitIdForPath } from '../git/commit-log.ts';
import { projectRepositoryPath, repositoryExists } from '../git/repository.ts';
import { blobAtPath, findBlob } from '../git/revisions.ts';
import { notFound } from '../errors.ts';
import { fileJsonChunks } from '../presenters/api-v3/repository-file.ts';
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

/** GET …/repository/raw_blobs/:sha. */
export async function rawBlob(deps: Deps, record: ProjectRecord, blobId: string): Promise<RawContent> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const blob = (await repositoryExists(repoPath)) ? await findBlob(repoPath, blobId) : undefined;
  if (!blob) throw notFound('Blob');
  return { size: blob.size, stream: blobContent(repoPath, blob.id) };
}

/** GET …/repository/files?file_path=&ref=. */
export async function repositoryFile(
  deps: Deps,
  record: ProjectRecord,
  filePath: string,
  ref: string,
): Promise<Readable> {
  const { repoPath, commitId } = await requireCommitId(deps, record, ref);
  const path = treePath(filePath);
  const blob = await blobAtPath(repoPath, commitId, path);
  if (!blob) throw notFound('File');
  const lastCommitId = (await lastCommitIdForPath(repoPath, commitId, path)) ?? null;
  return Readable.from(
    fileJsonChunks({ path, blob, ref, commitId, lastCommitId, content: blobContent(repoPath, blob.id) }),
  );
}
