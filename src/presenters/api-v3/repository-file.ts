// The body of GET …/repository/files: the file's name, path, size, base64 content, ref, blob and commit
// ids. The content is encoded as it streams; nothing holds the whole file.
import type { Readable } from 'node:stream';
import type { ObjectInfo } from '../../git/revisions.ts';
import { base64Chunks } from '../json-stream.ts';

export interface RepositoryFileParts {
  path: string;
  blob: ObjectInfo;
  ref: string;
  commitId: string;
  lastCommitId: string | null;
  content: Readable;
}

export async function* fileJsonChunks(parts: RepositoryFileParts): AsyncGenerator<string> {
  const name = parts.path.slice(parts.path.lastIndexOf('/') + 1);
  yield (
    `{"file_name":${JSON.stringify(name)},"file_path":${JSON.stringify(parts.path)},` +
    `"size":${parts.blob.size},"encoding":"base64","content":"`
  );
  yield* base64Chunks(parts.content);
  yield (
    `","ref":${JSON.stringify(parts.ref)},"blob_id":${JSON.stringify(parts.blob.id)},` +
    `"commit_id":${JSON.stringify(parts.commitId)},"last_commit_id":${JSON.stringify(parts.lastCommitId)}}`
  );
}

/** A file created, updated or deleted through the API: its path and the branch the commit went to. */
export function presentFileChange(filePath: string, branchName: string) {
  return { file_path: filePath, branch_name: branchName };
}
