// A project wiki as gollum (GitLab 8.13's wiki engine) keeps it: a bare repository whose branch master
// holds one file per page, `<dir>/<Page-Name>.<ext>`, the extension naming the markup. A page's slug is
// its path without the extension; its title the slug's last part with dashes as spaces. Files whose
// name starts with `_` (gollum's sidebars and footers) and files of other kinds are not pages.
//
// The page list is one `git ls-tree -r` of the commit, kept per commit id (a commit never changes, so
// every process may keep its own copy): a list, a lookup by slug or a count at the same tip reads it once.
import { BoundedMap } from '../lib/bounded-map.ts';
import { runGit } from './exec.ts';
import { readRefFiles } from './ref-files.ts';
import { repositoryExists } from './repository.ts';
import { gitRecords } from './streams.ts';

const WIKI_BRANCH = 'master';
export const WIKI_REF = `refs/heads/${WIKI_BRANCH}`;

export type WikiFormat = 'markdown' | 'rdoc' | 'asciidoc' | 'org';

/** The extension a new page of each format gets (gollum's first one). */
export const WIKI_FORMAT_EXTENSIONS: Record<WikiFormat, string> = {
  markdown: 'md',
  rdoc: 'rdoc',
  asciidoc: 'asciidoc',
  org: 'org',
};

const FORMAT_OF_EXTENSION: Record<string, WikiFormat> = {
  md: 'markdown',
  mkdn: 'markdown',
  mkd: 'markdown',
  mdown: 'markdown',
  markdown: 'markdown',
  rdoc: 'rdoc',
  asciidoc: 'asciidoc',
  adoc: 'asciidoc',
  org: 'org',
};

export interface WikiPageFile {
  /** The file's path in the tree (`dir/Page-Name.md`). */
  path: string;
  /** The path without its extension: what URLs name the page by. */
  slug: string;
  format: WikiFormat;
  blobId: string;
}

/** gollum's Page.cname: white space and `<`, `>`, `+` become dashes. */
export function wikiSlugOf(title: string): string {
  return title.replace(/\s/g, '-').replace(/[<>+]/g, '-');
}

/** GitLab's WikiPage#title: the slug's last part, dashes as spaces. */
export function wikiTitleOf(slug: string): string {
  return slug.slice(slug.lastIndexOf('/') + 1).replace(/-+/g, ' ');
}

/** How a lookup matches a slug: gollum compared names case-insensitively, with dashes for spaces. */
export function slugKey(slug: string): string {
  return wikiSlugOf(slug).toLowerCase();
}

function pageFile(path: string, blobId: string): WikiPageFile | undefined {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || name.startsWith('_')) return undefined;
  const format = FORMAT_OF_EXTENSION[name.slice(dot + 1).toLowerCase()];
  if (!format) return undefined;
  return { path, slug: path.slice(0, path.length - (name.length - dot)), format, blobId };
}

export interface WikiTree {
  commit: string;
  /** Every page, in git's tree order (by path). */
  pages: WikiPageFile[];
  /** Pages by slugKey (the first in tree order when two differ only in case or extension). */
  bySlug: Map<string, WikiPageFile>;
  /** Every blob of the tree by path (pages and other files). */
  files: Map<string, string>;
}

/** The tip of the wiki's branch, or null when it has none yet (or no repository). */
export async function wikiTip(repoPath: string): Promise<string | null> {
  if (!(await repositoryExists(repoPath))) return null;
  const refs = readRefFiles(repoPath);
  if (refs) return refs.refs.find((ref) => ref.name === WIKI_REF)?.oid ?? null;
  const result = await runGit(['rev-parse', '--verify', '--quiet', WIKI_REF], { cwd: repoPath });
  return result.code === 0 ? result.stdout.toString().trim() : null;
}

const trees = new BoundedMap<string, Promise<WikiTree>>(4);

async function readTree(repoPath: string, commit: string): Promise<WikiTree> {
  const pages: WikiPageFile[] = [];
  const bySlug = new Map<string, WikiPageFile>();
  const files = new Map<string, string>();
  for await (const bytes of gitRecords(['ls-tree', '-r', '-z', '--full-tree', commit], {
    cwd: repoPath,
    separator: 0,
  })) {
    // `<mode> blob <id>\t<path>`
    const record = bytes.toString('utf8');
    const tab = record.indexOf('\t');
    if (tab === -1) continue;
    const [, type, id] = record.slice(0, tab).split(' ');
    if (type !== 'blob') continue;
    const path = record.slice(tab + 1);
    files.set(path, id);
    const page = pageFile(path, id);
    if (!page) continue;
    pages.push(page);
    const key = slugKey(page.slug);
    if (!bySlug.has(key)) bySlug.set(key, page);
  }
  return { commit, pages, bySlug, files };
}

/** The pages of the wiki at `commit` (kept for the few commits last asked about). */
export function wikiTree(repoPath: string, commit: string): Promise<WikiTree> {
  const key = `${repoPath}\0${commit}`;
  let tree = trees.get(key);
  if (!tree) {
    tree = readTree(repoPath, commit);
    trees.set(key, tree);
    tree.catch(() => trees.delete(key));
  }
  return tree;
}

// Which commit last changed a path, as of a commit, never changes: kept for the pages and lists last
// asked about. It is worth keeping: a path-limited walk diffs each commit's tree against its parent's, and
// a wiki keeps its pages in one flat directory, so each step reads a tree as long as the wiki.
const lastEdits = new BoundedMap<string, Promise<Map<string, string>>>(256);

function remembered(key: string, read: () => Promise<Map<string, string>>): Promise<Map<string, string>> {
  let found = lastEdits.get(key);
  if (!found) {
    found = read();
    lastEdits.set(key, found);
    found.catch(() => lastEdits.delete(key));
  }
  return found;
}

/**
 * The newest commit that changed each of `paths` (one `git log` over all of them, stopped as soon as each
 * is found, kept per commit and paths): what a page of the list shows as "last edited".
 */
export function lastCommitsForPaths(
  repoPath: string,
  commit: string,
  paths: string[],
): Promise<Map<string, string>> {
  return remembered(`${repoPath}\0${commit}\0${paths.join('\0')}`, () =>
    readLastCommitsForPaths(repoPath, commit, paths),
  );
}

/** The newest commit that changed `path` as of `commit` (kept as lastCommitsForPaths keeps its answers). */
export async function wikiLastCommitFor(
  repoPath: string,
  commit: string,
  path: string,
): Promise<string | undefined> {
  return (await lastCommitsForPaths(repoPath, commit, [path])).get(path);
}

async function readLastCommitsForPaths(
  repoPath: string,
  commit: string,
  paths: string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (paths.length === 0) return found;
  const wanted = new Set(paths);
  const args = ['--literal-pathspecs', 'log', '--format=%x01%H', '--name-only', '-z', '--no-renames'];
  let current = '';
  // Records: `\x01<id>`, then `\n<path>` for the first path and `<path>` for the others.
  for await (const bytes of gitRecords([...args, commit, '--', ...paths], { cwd: repoPath, separator: 0 })) {
    const record = bytes.toString('utf8');
    if (record.startsWith('\x01')) current = record.slice(1);
    else {
      const path = record.startsWith('\n') ? record.slice(1) : record;
      if (wanted.has(path) && !found.has(path)) found.set(path, current);
    }
    if (found.size === wanted.size) break;
  }
  return found;
}

/** A page's text (a blob of the wiki), as UTF-8. */
export async function readWikiText(repoPath: string, blobId: string): Promise<string> {
  const result = await runGit(['cat-file', 'blob', blobId], { cwd: repoPath });
  if (result.code !== 0) throw new Error(`git cat-file failed (${result.code}): ${result.stderr.trim()}`);
  return result.stdout.toString('utf8');
}
