// Snippets for lists and pages: a page of rows with their authors in one more statement, each with the
// project it belongs to (the caller's project for a project's list, none for personal snippets).
import type { Deps } from '../deps.ts';
import { findBasicUsersByIds } from '../db/repositories/users.ts';
import { findProjectRecordsByIds } from '../db/repositories/projects.ts';
import {
  countSnippetsUpTo,
  findSnippet,
  listSnippets,
  type SnippetListFilter,
} from '../db/repositories/snippets.ts';
import { voteCounts } from '../db/repositories/issues.ts';
import type { Page } from '../http/pagination.ts';
import type { ProjectRecord, SnippetRow, UserBasicRow } from '../db/types.ts';

export interface SnippetView {
  snippet: SnippetRow;
  author: UserBasicRow | undefined;
  /** The project of a project snippet; null for a personal one. */
  record: ProjectRecord | null;
}

export type { SnippetListFilter };

export async function snippetViews(
  deps: Deps,
  rows: SnippetRow[],
  record: ProjectRecord | null,
): Promise<SnippetView[]> {
  const authors = await findBasicUsersByIds(deps.db.kysely, [...new Set(rows.map((row) => row.author_id))]);
  return rows.map((snippet) => ({ snippet, author: authors.get(snippet.author_id), record }));
}

export function countSnippetList(deps: Deps, filter: SnippetListFilter, cap: number): Promise<number> {
  return countSnippetsUpTo(deps.db.kysely, filter, cap);
}

export async function snippetListPage(
  deps: Deps,
  filter: SnippetListFilter,
  record: ProjectRecord | null,
  page: Pick<Page, 'limit' | 'offset'>,
): Promise<SnippetView[]> {
  return snippetViews(deps, await listSnippets(deps.db.kysely, filter, page), record);
}

/**
 * A page of snippets of both kinds (every one, or one author's), each project snippet with its project
 * read in one more statement (none when the page has only personal ones).
 */
export async function allSnippetsPage(
  deps: Deps,
  page: Pick<Page, 'limit' | 'offset'>,
  filter: Pick<SnippetListFilter, 'authorId'> = {},
): Promise<SnippetView[]> {
  const db = deps.db.kysely;
  const rows = await listSnippets(db, filter, page);
  const projectIds = [...new Set(rows.flatMap((row) => (row.project_id === null ? [] : [row.project_id])))];
  const [authors, records] = await Promise.all([
    findBasicUsersByIds(db, [...new Set(rows.map((row) => row.author_id))]),
    findProjectRecordsByIds(db, projectIds),
  ]);
  const byId = new Map(records.map((record) => [record.project.id, record]));
  return rows.map((snippet) => ({
    snippet,
    author: authors.get(snippet.author_id),
    record: snippet.project_id === null ? null : (byId.get(snippet.project_id) ?? null),
  }));
}

/** A snippet's thumbs up and down, in one statement. */
export async function snippetVotes(deps: Deps, id: number): Promise<{ upvotes: number; downvotes: number }> {
  const vote = (await voteCounts(deps.db.kysely, 'Snippet', [id])).get(id);
  return { upvotes: vote?.up ?? 0, downvotes: vote?.down ?? 0 };
}

export function findSnippetById(deps: Deps, id: number): Promise<SnippetRow | undefined> {
  return findSnippet(deps.db.kysely, id);
}
