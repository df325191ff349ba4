// git output read as a stream: the caller consumes stdout as it arrives (records split at a separator,
// or bytes piped onwards), so a tree, log, diff, blob or archive of any size never sits whole in memory.
// A time limit kills git, and so does a caller that stops reading early (kill()).
import type { Readable } from 'node:stream';
import { spawnGit } from './exec.ts';

export interface GitStream {
  stdout: Readable;
  /** git's exit code and (the start of) its stderr, once it has exited. */
  exit: Promise<{ code: number; stderr: string }>;
  /** Stops git early: the caller has what it needs, or its client went away. */
  kill(): void;
}

export interface StreamOptions {
  cwd: string;
  /** Bytes for stdin (then closed), or a stream piped into it. */
  input?: string | Readable;
  timeoutMs?: number;
}

const STDERR_KEPT = 4096;

export function streamGit(args: string[], options: StreamOptions): GitStream {
  const child = spawnGit(args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < STDERR_KEPT) stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 600_000);
  const exit = new Promise<{ code: number; stderr: string }>((resolve) => {
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stderr: String(error) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stderr });
    });
  });
  child.stdin!.on('error', () => {});
  if (options.input === undefined || typeof options.input === 'string') child.stdin!.end(options.input ?? '');
  else options.input.pipe(child.stdin!);
  return {
    stdout: child.stdout!,
    exit,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}

/** The records of a stream separated by `separator` (the last one may lack it), as they arrive. */
async function* records(stream: Readable, separator: number): AsyncGenerator<Buffer> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let start = 0;
    for (let end = pending.indexOf(separator, start); end !== -1; end = pending.indexOf(separator, start)) {
      yield pending.subarray(start, end);
      start = end + 1;
    }
    pending = pending.subarray(start);
  }
  if (pending.length > 0) yield pending;
}

/**
 * Runs git and yields its output records; git is stopped when the consumer stops early, and a non-zero
 * exit after a complete read throws (with git's stderr).
 */
export async function* gitRecords(
  args: string[],
  options: StreamOptions & { separator?: number },
): AsyncGenerator<Buffer> {
  const git = streamGit(args, options);
  let complete = false;
  try {
    yield* records(git.stdout, options.separator ?? 0x0a);
    complete = true;
  } finally {
    if (!complete) git.kill();
  }
  const { code, stderr } = await git.exit;
  if (code !== 0) throw new Error(`git ${args[0]} failed (${code}): ${stderr.trim()}`);
}
