// File contents: streamed from `git cat-file blob` as they arrive (served or encoded on the way, never
// held whole), or read into memory up to a size cap for files the server itself parses.
import type { Readable } from 'node:stream';
import { spawnGit } from './exec.ts';
import { streamGit } from './streams.ts';

/** The bytes of a blob; the stream errors if git fails, and stopping it early stops git. */
export function blobContent(repoPath: string, blobId: string): Readable {
  const git = streamGit(['cat-file', 'blob', blobId], { cwd: repoPath });
  const stream = git.stdout;
  stream.on('close', () => git.kill());
  git.exit.then(({ code, stderr }) => {
    if (code !== 0 && !stream.destroyed)
      stream.destroy(new Error(`git cat-file failed (${code}): ${stderr}`));
  });
  return stream;
}

export type BlobRead = { content: Buffer; tooLarge?: false } | { content?: undefined; tooLarge: true };

/** The file at `sha`, undefined when the commit has no such file (or no such commit). */
export function readFileAtCommit(
  repoPath: string,
  sha: string,
  filePath: string,
  maxBytes: number,
): Promise<BlobRead | undefined> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(['cat-file', 'blob', `${sha}:${filePath}`], {
      cwd: repoPath,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        child.kill();
        return;
      }
      chunks.push(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (tooLarge) return resolve({ tooLarge: true });
      resolve(code === 0 ? { content: Buffer.concat(chunks) } : undefined);
    });
  });
}
