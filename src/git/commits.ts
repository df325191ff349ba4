// Commits as GitLab presented them, read with `git cat-file --batch` (one process for any number of
// commits) or straight from `for-each-ref` fields; nothing here runs git once per commit.
import { BoundedMap } from '../lib/bounded-map.ts';
import { spawnGit } from './exec.ts';
import { git } from './exec.ts';
import { repositoryExists } from './repository.ts';

export interface Commit {
  id: string;
  parentIds: string[];
  authorName: string;
  authorEmail: string;
  /** `2015-12-24T16:51:14.000+01:00`: the commit's own offset, as Rails serialised the Time. */
  authoredDate: string;
  committerName: string;
  committerEmail: string;
  committedDate: string;
  /** The raw message, trailing newline included (Rugged's `message`). */
  message: string;
}

/** `1450972274 +0100` → `2015-12-24T16:51:14.000+01:00` (the time in the commit's own zone). */
export function formatGitDate(raw: string): string {
  const match = /^(-?\d+) ([+-])(\d\d)(\d\d)$/.exec(raw.trim());
  if (!match) return new Date(0).toISOString();
  const [, seconds, sign, hours, minutes] = match;
  const offset = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
  const local = new Date((Number(seconds) + offset * 60) * 1000).toISOString().slice(0, -1);
  return `${local}${sign}${hours}:${minutes}`;
}

/** `Name <email> 1450972274 +0100` → its three parts. */
function parseSignature(value: string): { name: string; email: string; date: string } {
  const match = /^(.*?) ?<([^>]*)> (\S+ \S+)$/.exec(value);
  if (!match) return { name: value, email: '', date: formatGitDate('0 +0000') };
  return { name: match[1], email: match[2], date: formatGitDate(match[3]) };
}

/** Parses a raw commit object (the body `cat-file` prints). */
export function parseCommitObject(id: string, raw: Buffer): Commit {
  const text = raw.toString('utf8');
  const split = text.indexOf('\n\n');
  const header = split === -1 ? text : text.slice(0, split);
  const message = split === -1 ? '' : text.slice(split + 2);
  const parentIds: string[] = [];
  let author = parseSignature('');
  let committer = author;
  for (const line of header.split('\n')) {
    // Continuation lines of multi-line headers (gpgsig, mergetag) start with a space.
    if (line.startsWith(' ')) continue;
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'parent') parentIds.push(value);
    else if (key === 'author') author = parseSignature(value);
    else if (key === 'committer') committer = parseSignature(value);
  }
  return {
    id,
    parentIds,
    authorName: author.name,
    authorEmail: author.email,
    authoredDate: author.date,
    committerName: committer.name,
    committerEmail: committer.email,
    committedDate: committer.date,
    message,
  };
}

/**
 * Reads many commits through one `git cat-file --batch`. Unknown ids and non-commits are left out;
 * the map is keyed by the id asked for. With `rememberedFor` (see knownCommits), full ids already read
 * are answered from memory; with `noneWithoutRepository`, a repository missing on disk answers no
 * commits, looked at only when git must be asked.
 */
export async function readCommits(
  repoPath: string,
  ids: string[],
  options: { rememberedFor?: string; noneWithoutRepository?: boolean } = {},
): Promise<Map<string, Commit>> {
  const result = new Map<string, Commit>();
  const missing: string[] = [];
  const rememberedKey = (id: string) => `${repoPath}\0${options.rememberedFor}\0${id}`;
  for (const id of new Set(ids)) {
    const known =
      options.rememberedFor !== undefined && FULL_SHA.test(id)
        ? knownCommits.get(rememberedKey(id))
        : undefined;
    if (known) result.set(id, known);
    else missing.push(id);
  }
  if (missing.length === 0) return result;
  if (options.noneWithoutRepository && !(await repositoryExists(repoPath))) return new Map();
  for (const [id, commit] of await readCommitObjects(repoPath, missing)) {
    Object.freeze(commit);
    result.set(id, commit);
    if (options.rememberedFor === undefined || !FULL_SHA.test(id)) continue;
    knownCommits.set(rememberedKey(id), commit);
  }
  return result;
}

/**
 * Commits already read, by repository, its owner and full id: an object never changes, and every page of
 * builds shows the same few commits (one `git cat-file` spawn and one look at the disk saved per page).
 * Refs and abbreviated ids are never kept. Only pages ask with `rememberedFor` (a check that a commit
 * exists asks the repository), naming the project that owns it by id and creation time: one deleted and
 * made again under the same path, which may lack the commit or the repository, never gets the old one's
 * answers. Bounded: the oldest go first when full.
 */
const MAX_KNOWN_COMMITS = 20_000;
const knownCommits = new BoundedMap<string, Commit>(MAX_KNOWN_COMMITS);
const FULL_SHA = /^[0-9a-f]{40}$/;

function readCommitObjects(repoPath: string, unique: string[]): Promise<Map<string, Commit>> {
  const result = new Map<string, Commit>();
  return new Promise((resolve, reject) => {
    const child = spawnGit(['cat-file', '--batch'], { cwd: repoPath, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file failed (${code}): ${stderr.trim()}`));
      const out = Buffer.concat(chunks);
      let position = 0;
      for (const asked of unique) {
        const newline = out.indexOf(10, position);
        if (newline === -1) break;
        const header = out.subarray(position, newline).toString();
        position = newline + 1;
        const [sha, type, size] = header.split(' ');
        if (type === undefined || size === undefined) continue; // "<id> missing"
        const length = Number(size);
        const body = out.subarray(position, position + length);
        position += length + 1;
        if (type === 'commit') result.set(asked, parseCommitObject(sha, body));
      }
      resolve(result);
    });
    child.stdin!.on('error', () => {});
    child.stdin!.end(unique.map((id) => `${id}\n`).join(''));
  });
}

/**
 * The commits a push brought, oldest first (`rev-list --reverse from..to`, or the whole history of `to`
 * when there is no `from`), with their total count. Only the last `limit` are read.
 */
export async function commitsBetween(
  repoPath: string,
  from: string | null,
  to: string,
  limit: number,
): Promise<{ total: number; commits: Commit[] }> {
  const ids = await commitIdsBetween(repoPath, from, to);
  const last = ids.slice(Math.max(0, ids.length - limit));
  const commits = await readCommits(repoPath, last);
  return { total: ids.length, commits: last.map((id) => commits.get(id)).filter((c): c is Commit => !!c) };
}

/** The ids of the commits in `to` and not in `from` (all of `to`'s history without one), oldest first. */
export async function commitIdsBetween(repoPath: string, from: string | null, to: string): Promise<string[]> {
  const range = from ? [`^${from}`, to] : [to];
  const out = await git(['rev-list', '--topo-order', '--reverse', ...range, '--'], { cwd: repoPath });
  return out.split('\n').filter(Boolean);
}

export interface ChangedFiles {
  added: string[];
  modified: string[];
  removed: string[];
}

/** Files each commit added/modified/removed against its first parent, for all commits in one diff-tree. */
export async function changedFiles(repoPath: string, commits: Commit[]): Promise<Map<string, ChangedFiles>> {
  const result = new Map<string, ChangedFiles>();
  if (commits.length === 0) return result;
  const input = commits.map((c) => (c.parentIds[0] ? `${c.id} ${c.parentIds[0]}\n` : `${c.id}\n`)).join('');
  const out = await git(['diff-tree', '--stdin', '-r', '--root', '--no-renames', '--name-status', '-z'], {
    cwd: repoPath,
    input,
  });
  const tokens = out.split('\0');
  let current: ChangedFiles | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === '') continue;
    const commitLine = /^([0-9a-f]{40})(?: [0-9a-f]{40})?\n?$/.exec(token);
    if (commitLine) {
      current = { added: [], modified: [], removed: [] };
      result.set(commitLine[1], current);
      continue;
    }
    const path = tokens[++i];
    if (!current || path === undefined) continue;
    if (token === 'A') current.added.push(path);
    else if (token === 'D') current.removed.push(path);
    else current.modified.push(path);
  }
  return result;
}
