// Reads of a project's wiki for the API and the pages: the page list (one tree listing of master, kept
// per commit, then a page of it: its texts through one `cat-file`, its last edits through one `git log`),
// one page (at master or at a version), and a page's history (a page of the commits that changed its
// file). Nothing here writes: a wiki that was never written has no repository yet and reads as empty.
import type { Deps } from '../deps.ts';
import { readCommits, type Commit } from '../git/commits.ts';
import { withObjectReader } from '../git/object-reader.ts';
import { resolveCommit } from '../git/revisions.ts';
import {
  lastCommitsForPaths,
  wikiLastCommitFor,
  readWikiText,
  slugKey,
  wikiTip,
  wikiTitleOf,
  wikiTree,
  type WikiFormat,
  type WikiPageFile,
} from '../git/wiki-pages.ts';
import { collectCommits } from '../git/commit-log.ts';
import type { Page } from '../http/pagination.ts';
import { wikiRepositoryPath } from '../services/wikis/wiki-pages.ts';
import type { ProjectRecord } from '../db/types.ts';

export interface WikiPageView {
  slug: string;
  title: string;
  format: WikiFormat;
  /** The page's text, when it was asked for. */
  content?: string;
  /** The last commit that changed the page (the list's "last edited"), when it was asked for. */
  lastCommit?: Commit;
}

export interface WikiPageList {
  total: number;
  pages: WikiPageView[];
}

function viewOf(file: WikiPageFile): WikiPageView {
  return { slug: file.slug, title: wikiTitleOf(file.slug), format: file.format };
}

/** One page of the wiki's pages in tree order, with their texts and/or their last commits. */
export async function listWikiPages(
  deps: Deps,
  record: ProjectRecord,
  page: Page,
  wanted: { content?: boolean; lastCommit?: boolean } = {},
): Promise<WikiPageList> {
  const repoPath = wikiRepositoryPath(deps, record);
  const tip = await wikiTip(repoPath);
  if (!tip) return { total: 0, pages: [] };
  const tree = await wikiTree(repoPath, tip);
  const files = tree.pages.slice(page.offset, page.offset + page.limit);
  const views = files.map(viewOf);
  if (wanted.content && files.length > 0) {
    await withObjectReader(repoPath, async (reader) => {
      const blobs = await Promise.all(files.map((file) => reader.contents(file.blobId)));
      blobs.forEach((blob, index) => (views[index].content = blob?.body.toString('utf8') ?? ''));
    });
  }
  if (wanted.lastCommit && files.length > 0) {
    const last = await lastCommitsForPaths(
      repoPath,
      tip,
      files.map((file) => file.path),
    );
    const commits = await readCommits(repoPath, [...new Set(last.values())]);
    files.forEach((file, index) => {
      const id = last.get(file.path);
      if (id) views[index].lastCommit = commits.get(id);
    });
  }
  return { total: tree.pages.length, pages: views };
}

export interface WikiPageDetail extends WikiPageView {
  content: string;
  path: string;
  /** The version shown: the commit asked for, or the page's last commit at master. */
  commit: Commit;
  /** The page's last commit at master (what an edit form sends back as `last_commit_sha`). */
  lastCommitId: string;
  /** An older version than master's. */
  historical: boolean;
}

const COMMIT_ID = /^[0-9a-f]{7,40}$/i;

/**
 * The page `slug` at master, or at `version` (a commit id, as GitLab's version_id), or undefined when
 * there is no such page (or no such version).
 */
export async function loadWikiPage(
  deps: Deps,
  record: ProjectRecord,
  slug: string,
  version?: string,
): Promise<WikiPageDetail | undefined> {
  const repoPath = wikiRepositoryPath(deps, record);
  const tip = await wikiTip(repoPath);
  if (!tip) return undefined;
  let at = tip;
  if (version !== undefined && version !== '') {
    if (!COMMIT_ID.test(version)) return undefined;
    const resolved = await resolveCommit(repoPath, version);
    if (!resolved) return undefined;
    at = resolved;
  }
  const tree = await wikiTree(repoPath, at);
  const file = tree.bySlug.get(slugKey(slug));
  if (!file) return undefined;
  const [content, lastAtTip, lastAtVersion] = await Promise.all([
    readWikiText(repoPath, file.blobId),
    wikiLastCommitFor(repoPath, tip, file.path),
    at === tip ? undefined : wikiLastCommitFor(repoPath, at, file.path),
  ]);
  const shownId = at === tip ? lastAtTip : version === undefined ? lastAtVersion : at;
  const commits = await readCommits(repoPath, [shownId ?? at]);
  const commit = commits.get(shownId ?? at);
  if (!commit) return undefined;
  return {
    ...viewOf(file),
    content,
    path: file.path,
    commit,
    lastCommitId: lastAtTip ?? '',
    historical: at !== tip && lastAtTip !== undefined && commit.id !== lastAtTip,
  };
}

export interface WikiPageHistory {
  /** The page at master (its title, format, path). */
  page: WikiPageView & { path: string };
  /** A page of the commits that changed the page's file, newest first (one more than asked: a next page). */
  commits: Commit[];
}

/**
 * The commits that changed the page `slug`'s file at master, newest first, `page.limit` from
 * `page.offset` (one `rev-list` bounded by the page, streamed into one `cat-file`); undefined when there is
 * no such page. Like gollum's page versions, a rename starts the file's history anew.
 */
export async function wikiPageHistory(
  deps: Deps,
  record: ProjectRecord,
  slug: string,
  page: { offset: number; limit: number },
): Promise<WikiPageHistory | undefined> {
  const repoPath = wikiRepositoryPath(deps, record);
  const tip = await wikiTip(repoPath);
  if (!tip) return undefined;
  const tree = await wikiTree(repoPath, tip);
  const file = tree.bySlug.get(slugKey(slug));
  if (!file) return undefined;
  const commits = await collectCommits(repoPath, [
    `--max-count=${page.limit}`,
    `--skip=${page.offset}`,
    tip,
    '--',
    `:(literal)${file.path}`,
  ]);
  return { page: { ...viewOf(file), path: file.path }, commits };
}
