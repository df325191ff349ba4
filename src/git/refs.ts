// Branches and tags read with ONE `git for-each-ref` per call: the ref, its sha and the commit's
// fields come in the same output, so listing 1,000 branches still costs one process.
import { formatGitDate, type Commit } from './commits.ts';
import { git, runGit } from './exec.ts';
import { isRefShortName } from './ref-names.ts';
import { readRefFiles } from './ref-files.ts';

export interface Branch {
  name: string;
  commit: Commit;
}

const FIELDS = [
  '%(refname)',
  '%(objectname)',
  '%(parent)',
  '%(authorname)',
  '%(authoremail:trim)',
  '%(authordate:raw)',
  '%(committername)',
  '%(committeremail:trim)',
  '%(committerdate:raw)',
  '%(contents)',
];
const RECORD_END = '\0\x01\n';
const FORMAT = `${FIELDS.join('%00')}%00%01`;

function parseBranches(out: string): Branch[] {
  const branches: Branch[] = [];
  for (const record of out.split(RECORD_END)) {
    if (record === '') continue;
    const [ref, sha, parents, an, ae, ad, cn, ce, cd, message] = record.split('\0');
    branches.push({
      name: ref.slice('refs/heads/'.length),
      commit: {
        id: sha,
        parentIds: parents ? parents.split(' ') : [],
        authorName: an,
        authorEmail: ae,
        authoredDate: formatGitDate(ad),
        committerName: cn,
        committerEmail: ce,
        committedDate: formatGitDate(cd),
        message: message ?? '',
      },
    });
  }
  return branches;
}

/** Every branch, sorted by name (byte order, as git sorts refs). */
export async function listBranches(repoPath: string): Promise<Branch[]> {
  const out = await git(['for-each-ref', `--format=${FORMAT}`, '--sort=refname', 'refs/heads/'], {
    cwd: repoPath,
  });
  return parseBranches(out);
}

/** One branch by exact name, or undefined (also for a name no branch could have). */
export async function findBranch(repoPath: string, name: string): Promise<Branch | undefined> {
  if (!isRefShortName(name)) return undefined;
  // for-each-ref matches by prefix per path component: refs/heads/a also lists refs/heads/a/b.
  const out = await git(['for-each-ref', `--format=${FORMAT}`, `refs/heads/${name}`], { cwd: repoPath });
  return parseBranches(out).find((branch) => branch.name === name);
}

/** The current sha of each given full ref name (absent refs are missing from the map). */
export async function resolveRefs(repoPath: string, refs: string[]): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  if (refs.length === 0) return result;
  const out = await git(['for-each-ref', '--format=%(refname) %(objectname)', ...refs], { cwd: repoPath });
  const wanted = new Set(refs);
  for (const line of out.split('\n')) {
    const space = line.lastIndexOf(' ');
    const ref = line.slice(0, space);
    if (wanted.has(ref)) result.set(ref, line.slice(space + 1));
  }
  return result;
}

/** The commit a tag ref points to (peeled through annotated tags), or undefined. */
export async function peelTag(repoPath: string, ref: string): Promise<string | undefined> {
  const result = await runGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: repoPath });
  return result.code === 0 ? result.stdout.toString().trim() : undefined;
}

/** The message of an annotated tag object (null for lightweight tags). */
export async function tagMessage(repoPath: string, sha: string): Promise<string | null> {
  const type = await runGit(['cat-file', '-t', sha], { cwd: repoPath });
  if (type.code !== 0 || type.stdout.toString().trim() !== 'tag') return null;
  const body = (await git(['cat-file', 'tag', sha], { cwd: repoPath })).toString();
  const split = body.indexOf('\n\n');
  return split === -1 ? '' : body.slice(split + 2);
}

/** Points HEAD at a branch (the first push chooses the default branch). */
export async function setHead(repoPath: string, branch: string): Promise<void> {
  await git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], { cwd: repoPath });
}

/** Whether the repository has any branch at all (an empty project has none). */
export async function hasBranches(repoPath: string): Promise<boolean> {
  const out = await git(['for-each-ref', '--count=1', '--format=%(refname)', 'refs/heads/'], {
    cwd: repoPath,
  });
  return out.trim() !== '';
}

/** The names of every branch (`heads`) or tag (`tags`), without reading their commits. */
export async function refNames(repoPath: string, kind: 'heads' | 'tags'): Promise<string[]> {
  const prefix = `refs/${kind}/`;
  const out = await git(['for-each-ref', '--format=%(refname)', prefix], { cwd: repoPath });
  return out
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length));
}

/** The branches whose history holds the commit, sorted by name (GitLab's branch_names_contains). */
export async function branchNamesContaining(repoPath: string, sha: string): Promise<string[]> {
  const out = await git(
    ['for-each-ref', '--format=%(refname)', '--sort=refname', `--contains=${sha}`, 'refs/heads/'],
    {
      cwd: repoPath,
    },
  );
  return out
    .split('\n')
    .filter((line) => line !== '')
    .map((ref) => ref.slice('refs/heads/'.length));
}

/**
 * Every ref under refs/ and its object id, by full name: from the ref files when git's files backend
 * holds them plainly (no process), else from one `for-each-ref`.
 */
export async function readAllRefs(repoPath: string): Promise<Map<string, string>> {
  const files = readRefFiles(repoPath);
  if (files) return new Map(files.refs.map((ref) => [ref.name, ref.oid]));
  const out = await git(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/'], { cwd: repoPath });
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    if (line.length > 41) refs.set(line.slice(41), line.slice(0, 40));
  }
  return refs;
}

/**
 * The commit a short name resolves to when rev-parse would take it as that branch (git keeps only commits
 * in branches): not a full id, not a pseudo-ref like HEAD, and no refs/<name> or tag of that name ahead
 * of it in rev-parse's order. Undefined means "ask git".
 */
export function branchCommitFromRefs(refs: Map<string, string>, name: string): string | undefined {
  if (/^[A-Z_]+$/.test(name) || /^[0-9a-f]{40}$/.test(name)) return undefined;
  if (refs.has(`refs/${name}`) || refs.has(`refs/tags/${name}`)) return undefined;
  return refs.get(`refs/heads/${name}`);
}

/** The branches whose tip is reachable from `into` (GitLab's merged_branch_names); empty when `into` is missing. */
export async function mergedBranchNames(repoPath: string, into: string): Promise<Set<string>> {
  const result = await runGit(['for-each-ref', '--format=%(refname)', `--merged=${into}`, 'refs/heads/'], {
    cwd: repoPath,
  });
  if (result.code !== 0) return new Set();
  return new Set(
    result.stdout
      .toString('utf8')
      .split('\n')
      .filter((line) => line.startsWith('refs/heads/'))
      .map((ref) => ref.slice('refs/heads/'.length)),
  );
}
