// The files API as v4 shows it: the file's metadata (in its JSON body, and as X-Gitlab-* headers on GET,
// HEAD and /raw), its content base64-encoded as it streams, after every other field; a write's answer
// `{file_path, branch}`; and GET …/blobs/:sha, `{size, encoding, content, sha}`.
import type { Readable } from 'node:stream';
import type { RepositoryFile } from '../../views/blob-views.ts';
import { base64Chunks } from '../json-stream.ts';

export function presentFileMetadata(file: RepositoryFile, details: { sha256: string; executable: boolean }) {
  return {
    file_name: file.path.slice(file.path.lastIndexOf('/') + 1),
    file_path: file.path,
    size: file.blob.size,
    encoding: 'base64',
    content_sha256: details.sha256,
    ref: file.ref,
    blob_id: file.blob.id,
    commit_id: file.commitId,
    last_commit_id: file.lastCommitId,
    execute_filemode: details.executable,
  };
}

/** Grape's set_http_headers: `X-Gitlab-File-Name` and the rest, each value as text. */
export function presentFileHeaders(metadata: ReturnType<typeof presentFileMetadata>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) {
    const name = key
      .split('_')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join('-');
    headers[`X-Gitlab-${name}`] = value === null ? '' : String(value);
  }
  return headers;
}

/** A JSON object's fields, then `content` as base64 streamed from `content`, closing the object. */
export async function* withBase64Content(fields: object, content: Readable): AsyncGenerator<string> {
  const head = JSON.stringify(fields);
  yield `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"content":"`;
  yield* base64Chunks(content);
  yield '"}';
}

/** GET …/repository/blobs/:sha: the blob's size, then its content, then its id. */
export async function* blobJsonChunks(blob: {
  id: string;
  size: number;
  stream: Readable;
}): AsyncGenerator<string> {
  yield `{"size":${blob.size},"encoding":"base64","content":"`;
  yield* base64Chunks(blob.stream);
  yield `","sha":${JSON.stringify(blob.id)}}`;
}

export function presentFileChange(filePath: string, branch: string) {
  return { file_path: filePath, branch };
}
