// Walks of history streamed as parsed commits: `git rev-list` prints ids straight into one
// `git cat-file --batch`, whose output is parsed object by object as it arrives, so a walk over any
// number of commits costs two processes and holds one commit at a time.
import type { Readable } from 'node:stream';
import { parseCommitObject, type Commit } from './commits.ts';
import { runGit } from './exec.ts';
import { streamGit } from './streams.ts';

/** The objects of a `cat-file --batch` stream, one at a time: header fields and body. */
async function* batchObjects(stream: Readable): AsyncGenerator<{ id: string; type: string; body: Buffer }> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const newline = pending.indexOf(10);
      if (newline === -1) break;
      const [id, type, size] = pending.subarray(0, newline).toString().split(' ');
      if (size === undefined) {
        // "<name> missing": nothing follows the header.
        pending = pending.subarray(newline + 1);
        continue;
      }
      const end = newline + 1 + Number(size);
      if (pending.length < end + 1) break;
      yield { id, type, body: pending.subarray(newline + 1, end) };
      pending = pending.subarray(end + 1);
    }
  }
}

/** The commits `git rev-list <args>` lists, in its order, parsed as they stream. */
export async function* walkCommits(repoPath: string, revListArgs: string[]): AsyncGenerator<Commit> {
  const ids = streamGit(['rev-list', ...revListArgs], { cwd: repoPath });
  const objects = streamGit(['cat-file', '--batch'], { cwd: repoPath, input: ids.stdout });
  let complete = false;
  try {
    for await (const object of batchObjects(objects.stdout)) {
      if (object.type === 'commit') yield parseCommitObject(object.id, object.body);
    }
    complete = true;
  } finally {
    if (!complete) {
      ids.kill();
      objects.kill();
    }
  }
  const [walk, read] = await Promise.all([ids.exit, objects.exit]);
  if (walk.code !== 0) throw new Error(`git rev-list failed (${walk.code}): ${walk.stderr.trim()}`);
  if (read.code !== 0) throw new Error(`git cat-file failed (${read.code}): ${read.stderr.trim()}`);
}

/** Collects a bounded walk (a page of commits) into an array. */
export async function collectCommits(repoPath: string, revListArgs: string[]): Promise<Commit[]> {
  const commits: Commit[] = [];
  for await (const commit of walkCommits(repoPath, revListArgs)) commits.push(commit);
  return commits;
}

/** The newest commit reachable from `commit` that changed `path` (taken literally, not as a pattern). */
export async function lastCommitIdForPath(
  repoPath: string,
  commit: string,
  path: string,
): Promise<string | undefined> {
  const result = await runGit(['--literal-pathspecs', 'rev-list', '--max-count=1', commit, '--', path], {
    cwd: repoPath,
  });
  const id = result.stdout.toString().trim();
  return result.code === 0 && id !== '' ? id : undefined;
}
