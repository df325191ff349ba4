// Snippets: a project's (`ProjectSnippet`) and users' own (`PersonalSnippet`, no project). Every list is
// newest first on an index (snippets_project, snippets_author, snippets_personal_visibility) and counts
// no further than a cap, so a page costs the same at a hundred snippets as at a hundred thousand.
import { sql } from 'kysely';
import type { Executor, NewSnippet, SnippetChanges, SnippetRow } from '../types.ts';

export function insertSnippet(db: Executor, row: NewSnippet): Promise<SnippetRow> {
  return db.insertInto('snippets').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateSnippet(
  db: Executor,
  id: number,
  changes: SnippetChanges,
): Promise<SnippetRow | undefined> {
  return db.updateTable('snippets').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteSnippetRow(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('snippets').where('id', '=', id).execute();
}

export function findSnippet(db: Executor, id: number): Promise<SnippetRow | undefined> {
  return db.selectFrom('snippets').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Which snippets a list holds: a project's (`projectId`) or personal ones (`personal`), of one author
 * (`authorId`), at or above a visibility (`minimumVisibility`, or exactly `visibility`).
 */
export interface SnippetListFilter {
  projectId?: number;
  personal?: boolean;
  authorId?: number;
  minimumVisibility?: number;
  visibility?: number;
  /**
   * Personal snippets of any of these visibilities (8.13's `public_and_internal`). The page is a merged
   * walk: one bounded newest-first walk of snippets_personal_visibility per value, then the merge.
   */
  visibilities?: number[];
}

function snippetList(db: Executor, filter: SnippetListFilter) {
  let query = db.selectFrom('snippets');
  if (filter.projectId !== undefined) query = query.where('project_id', '=', filter.projectId);
  if (filter.personal) query = query.where('project_id', 'is', null);
  if (filter.authorId !== undefined) query = query.where('author_id', '=', filter.authorId);
  if (filter.minimumVisibility !== undefined && filter.minimumVisibility > 0) {
    query = query.where('visibility_level', '>=', filter.minimumVisibility);
  }
  if (filter.visibility !== undefined) query = query.where('visibility_level', '=', filter.visibility);
  if (filter.visibilities !== undefined) query = query.where('visibility_level', 'in', filter.visibilities);
  return query;
}

/** How many snippets the list has, counting no further than `cap` (a bounded walk of its index). */
export async function countSnippetsUpTo(
  db: Executor,
  filter: SnippetListFilter,
  cap: number,
): Promise<number> {
  const row = await db
    .selectFrom(
      snippetList(db, filter)
        .select(sql<number>`1`.as('one'))
        .limit(cap)
        .as('capped'),
    )
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listSnippets(
  db: Executor,
  filter: SnippetListFilter,
  page: { limit: number; offset: number },
): Promise<SnippetRow[]> {
  const values = filter.visibilities;
  if (values !== undefined && values.length > 1) {
    // Each value's walk stops after limit + offset rows, so the page never reads more than that per value.
    const walks = values.map((value) =>
      db
        .selectFrom(
          snippetList(db, { ...filter, visibilities: undefined, visibility: value })
            .selectAll()
            .orderBy('id', 'desc')
            .limit(page.limit + page.offset)
            .as('walk'),
        )
        .selectAll(),
    );
    const merged = walks.slice(1).reduce((union, walk) => union.unionAll(walk), walks[0]!);
    return db
      .selectFrom(merged.as('merged'))
      .selectAll()
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
  }
  return snippetList(db, filter)
    .selectAll()
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
