// `git archive` of a commit, streamed: git writes the archive (and gzip, built into git, compresses tar.gz)
// or `bzip2` compresses git's tar as it flows; the caller pipes the result to the client. Nothing is
// written to disk or kept in memory beyond the pipes' buffers.
import { spawn } from 'node:child_process';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { streamGit } from './streams.ts';

export type ArchiveFormat = 'tar.gz' | 'tar.bz2' | 'tar' | 'zip';

const TIMEOUT_MS = 60 * 60 * 1000;

/** The archive as a stream; it errors when git (or bzip2) fails, and destroying it stops them. */
export function archiveStream(
  repoPath: string,
  commit: string,
  prefix: string,
  format: ArchiveFormat,
  /** Only this directory of the commit. */
  path?: string,
): Readable {
  const gitFormat = format === 'tar.bz2' ? 'tar' : format;
  const paths = path ? ['--', path] : [];
  const git = streamGit(['archive', `--format=${gitFormat}`, `--prefix=${prefix}/`, commit, ...paths], {
    cwd: repoPath,
    timeoutMs: TIMEOUT_MS,
  });
  const out = new PassThrough();
  const failed = (error: Error) => {
    if (!out.destroyed) out.destroy(error);
  };
  git.exit.then(({ code, stderr }) => {
    if (code !== 0) failed(new Error(`git archive failed (${code}): ${stderr.trim()}`));
  });
  out.on('close', () => git.kill());
  if (format !== 'tar.bz2') {
    git.stdout.pipe(out);
    return out;
  }
  const bzip2 = spawn('bzip2', ['-c'], { stdio: ['pipe', 'pipe', 'ignore'] });
  bzip2.on('error', failed);
  bzip2.on('close', (code) => {
    if (code !== 0) failed(new Error(`bzip2 failed (${code})`));
  });
  out.on('close', () => bzip2.exitCode === null && bzip2.kill());
  pipeline(git.stdout, bzip2.stdin, () => {});
  bzip2.stdout.pipe(out);
  return out;
}
