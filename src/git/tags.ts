// Tags read with one `git for-each-ref` (name, object, the tagged commit, the annotation), their commits
// with one `cat-file --batch`; annotated tags are written with `git mktag` (the ref is moved separately,
// with compare-and-swap).
import { formatGitDate, readCommits, type Commit } from './commits.ts';
import { git } from './exec.ts';
import { isRefShortName } from './ref-names.ts';
import type { Signature } from './commit-writer.ts';

export interface Tag {
  name: string;
  /** The object the ref points at: the annotation of an annotated tag, else the commit. */
  targetId: string;
  /** The annotation's message with one trailing newline removed (Ruby's chomp); null for lightweight tags. */
  message: string | null;
  /** The tagged commit, or null when the tag names something else (a tree, a blob). */
  commit: Commit | null;
  /** When an annotated tag was made (its tagger's date, in the tagger's zone); null for lightweight tags. */
  createdAt: string | null;
}

const FORMAT = [
  '%(refname)',
  '%(objectname)',
  '%(objecttype)',
  '%(*objectname)',
  '%(*objecttype)',
  '%(taggerdate:raw)',
  '%(contents)',
]
  .join('%00')
  .concat('%00%01');
const RECORD_END = '\0\x01\n';

function chomp(text: string): string {
  if (text.endsWith('\r\n')) return text.slice(0, -2);
  return text.endsWith('\n') || text.endsWith('\r') ? text.slice(0, -1) : text;
}

async function readTags(repoPath: string, args: string[], exactName?: string): Promise<Tag[]> {
  const out = await git(['for-each-ref', `--format=${FORMAT}`, ...args], { cwd: repoPath });
  const rows = out
    .split(RECORD_END)
    .filter((record) => record !== '')
    .map((record) => {
      const [ref, id, type, peeledId, peeledType, taggerDate, contents] = record.split('\0');
      const commitId = type === 'commit' ? id : peeledType === 'commit' ? peeledId : null;
      return {
        name: ref.slice('refs/tags/'.length),
        targetId: id,
        message: type === 'tag' ? chomp(contents ?? '') : null,
        createdAt: type === 'tag' && taggerDate ? formatGitDate(taggerDate) : null,
        commitId,
      };
    })
    .filter((row) => exactName === undefined || row.name === exactName);
  const commits = await readCommits(
    repoPath,
    rows.flatMap((row) => (row.commitId ? [row.commitId] : [])),
  );
  return rows.map(({ commitId, ...row }) => ({
    ...row,
    commit: (commitId && commits.get(commitId)) || null,
  }));
}

/** Every tag, by name in reverse byte order (GitLab's `sort_by(&:name).reverse`). */
export function listTags(repoPath: string): Promise<Tag[]> {
  return readTags(repoPath, ['--sort=-refname', 'refs/tags/']);
}

/** One tag by exact name, or undefined. */
export async function findTag(repoPath: string, name: string): Promise<Tag | undefined> {
  if (!isRefShortName(name)) return undefined;
  // for-each-ref matches whole path components: refs/tags/v1 also lists refs/tags/v1/x.
  return (await readTags(repoPath, [`refs/tags/${name}`], name))[0];
}

/** Writes an annotated tag object for a commit and returns its id. */
export async function writeTagObject(
  repoPath: string,
  tag: { name: string; commit: string; tagger: Signature; message: string; time?: number },
): Promise<string> {
  const time = tag.time ?? Math.floor(Date.now() / 1000);
  const message = tag.message === '' || tag.message.endsWith('\n') ? tag.message : `${tag.message}\n`;
  const body =
    `object ${tag.commit}\ntype commit\ntag ${tag.name}\n` +
    `tagger ${tag.tagger.name} <${tag.tagger.email}> ${time} +0000\n\n${message}`;
  return (await git(['mktag'], { cwd: repoPath, input: body })).trim();
}
