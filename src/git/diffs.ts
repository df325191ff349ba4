// Diffs between two trees as GitLab's Gitlab::Git::Diff saw them (renames detected, the patch text from
// its `---` line on), read from one `git diff-tree --raw -p -z` as it streams: the raw section names each
// file (NUL-separated, so any path is exact), the patches follow in the same order. Limits stop git early.
import { StringDecoder } from 'node:string_decoder';
import { runGit } from './exec.ts';
import { streamGit } from './streams.ts';

/** git's id of the empty tree: the "parent" of a root commit. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export interface FileDiff {
  oldPath: string;
  newPath: string;
  /** Octal modes without leading zeros, `0` where the side does not exist (Rugged's mode.to_s(8)). */
  aMode: string;
  bMode: string;
  /** The patch from its `---` (or `Binary files`) line; empty for a pure rename or mode change. */
  diff: string;
  newFile: boolean;
  renamedFile: boolean;
  deletedFile: boolean;
  /** The patch was over the size limit and left out. */
  tooLarge: boolean;
}

export interface DiffLimits {
  maxFiles: number;
  /** Patch lines of all files together; the file that crosses it is left out. */
  maxLines: number;
  /** Bytes of one file's patch beyond which its text is left out (`tooLarge`). */
  maxFileBytes: number;
}

interface RawEntry {
  aMode: string;
  bMode: string;
  status: string;
  oldPath: string;
  newPath: string;
}

const octal = (mode: string) => parseInt(mode, 8).toString(8);

/** GitLab's strip_diff_headers: everything before the first `---` or `Binary` line goes. */
function stripHeaders(patch: string): string {
  const match = /^(---|Binary)/m.exec(patch);
  return match ? patch.slice(match.index) : '';
}

function toFileDiff(entry: RawEntry, patch: string, tooLarge: boolean): FileDiff {
  return {
    oldPath: entry.oldPath,
    newPath: entry.newPath,
    aMode: octal(entry.aMode),
    bMode: octal(entry.bMode),
    diff: tooLarge ? '' : stripHeaders(patch),
    newFile: entry.status === 'A',
    renamedFile: entry.status.startsWith('R'),
    deletedFile: entry.status === 'D',
    tooLarge,
  };
}

/** Lines of a patch as Ruby's String#lines counts them. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}

/**
 * The file diffs from tree-ish `from` to `to`, in git's order, within the limits. `overflow` says a limit
 * cut the list short.
 */
export async function diffTrees(
  repoPath: string,
  from: string,
  to: string,
  limits: DiffLimits,
): Promise<{ diffs: FileDiff[]; overflow: boolean }> {
  const git = streamGit(['diff-tree', '-r', '-M', '--raw', '-p', '-z', '--no-color', from, to], {
    cwd: repoPath,
  });
  const entries: RawEntry[] = [];
  const diffs: FileDiff[] = [];
  let overflow = false;
  let lines = 0;
  // Raw section: tokens separated by NUL until an empty one.
  let inRaw = true;
  let pendingHeader: string[] | undefined;
  let pendingPaths: string[] = [];
  // Patch section: the current file's text and its byte count.
  let patch: string[] = [];
  let patchBytes = 0;
  let current = -1;
  let buffer = '';

  const finishFile = (): boolean => {
    if (current < 0 || current >= entries.length) return true;
    const tooLarge = patchBytes > limits.maxFileBytes;
    const diff = toFileDiff(entries[current], patch.join(''), tooLarge);
    patch = [];
    patchBytes = 0;
    lines += lineCount(diff.diff);
    if (lines >= limits.maxLines) return false;
    diffs.push(diff);
    return true;
  };
  const rawToken = (token: string) => {
    if (token === '' && pendingHeader === undefined) {
      inRaw = false;
      return;
    }
    if (pendingHeader === undefined) {
      pendingHeader = token.slice(1).split(' ');
      pendingPaths = [];
      return;
    }
    pendingPaths.push(token);
    const status = pendingHeader[4];
    const needed = status.startsWith('R') || status.startsWith('C') ? 2 : 1;
    if (pendingPaths.length < needed) return;
    if (entries.length < limits.maxFiles) {
      entries.push({
        aMode: pendingHeader[0],
        bMode: pendingHeader[1],
        status,
        oldPath: pendingPaths[0],
        newPath: pendingPaths[needed - 1],
      });
    } else {
      overflow = true;
    }
    pendingHeader = undefined;
  };

  const decoder = new StringDecoder('utf8');
  let stoppedEarly = false;
  let completed = false;
  try {
    outer: for await (const chunk of git.stdout as AsyncIterable<Buffer>) {
      buffer += decoder.write(chunk);
      let position = 0;
      while (inRaw) {
        const nul = buffer.indexOf('\0', position);
        if (nul === -1) break;
        rawToken(buffer.slice(position, nul));
        position = nul + 1;
      }
      if (inRaw) {
        buffer = buffer.slice(position);
        continue;
      }
      for (
        let newline = buffer.indexOf('\n', position);
        newline !== -1;
        newline = buffer.indexOf('\n', position)
      ) {
        const line = buffer.slice(position, newline + 1);
        position = newline + 1;
        if (line.startsWith('diff --git ')) {
          if (!finishFile()) {
            overflow = true;
            stoppedEarly = true;
            break outer;
          }
          current++;
          if (current >= entries.length) {
            stoppedEarly = true;
            break outer;
          }
          continue;
        }
        patchBytes += Buffer.byteLength(line);
        if (patchBytes <= limits.maxFileBytes) patch.push(line);
      }
      buffer = buffer.slice(position);
    }
    if (!stoppedEarly) {
      buffer += decoder.end();
      if (buffer !== '') patch.push(buffer);
      if (!finishFile()) overflow = true;
    }
    completed = true;
  } finally {
    if (stoppedEarly || !completed) git.kill();
  }
  const { code, stderr } = await git.exit;
  if (!stoppedEarly && code !== 0) throw new Error(`git diff-tree failed (${code}): ${stderr.trim()}`);
  return { diffs, overflow };
}

export interface DiffStats {
  additions: number;
  deletions: number;
  total: number;
}

/** Lines added and removed from `from` to `to` (renames detected; binary files count nothing). */
export async function diffStats(repoPath: string, from: string, to: string): Promise<DiffStats> {
  const result = await runGit(['diff-tree', '-r', '-M', '--shortstat', from, to], { cwd: repoPath });
  if (result.code !== 0) throw new Error(`git diff-tree failed (${result.code}): ${result.stderr.trim()}`);
  const text = result.stdout.toString();
  const additions = Number(/(\d+) insertions?\(\+\)/.exec(text)?.[1] ?? 0);
  const deletions = Number(/(\d+) deletions?\(-\)/.exec(text)?.[1] ?? 0);
  return { additions, deletions, total: additions + deletions };
}

/** The best common ancestor of two commits, or undefined for unrelated histories. */
export async function mergeBase(repoPath: string, a: string, b: string): Promise<string | undefined> {
  const result = await runGit(['merge-base', a, b], { cwd: repoPath });
  return result.code === 0 ? result.stdout.toString().trim() : undefined;
}

/**
 * A commit as plain text for download: its diff against the first parent (`diff`) or the mail-formatted
 * patch (`patch`, as `git format-patch` writes it), streamed.
 */
export function rawCommitPatch(repoPath: string, commit: string, form: 'diff' | 'patch') {
  const args =
    form === 'diff'
      ? ['diff-tree', '-p', '--root', '--no-color', '--no-commit-id', '-M', commit]
      : ['format-patch', '-1', '--stdout', '--no-color', '--root', commit];
  return streamGit(args, { cwd: repoPath }).stdout;
}
