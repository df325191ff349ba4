// Fork links: one per fork (unique forked_to_project_id), counted per source on its own index.
import type { Executor } from '../types.ts';
import type { ForkLinkRow } from '../types.ts';

export function findForkLinkTo(db: Executor, projectId: number): Promise<ForkLinkRow | undefined> {
  return db
    .selectFrom('forked_project_links')
    .selectAll()
    .where('forked_to_project_id', '=', projectId)
    .executeTakeFirst();
}

export function insertForkLink(
  db: Executor,
  forkId: number,
  sourceId: number,
  at: string,
): Promise<ForkLinkRow> {
  return db
    .insertInto('forked_project_links')
    .values({
      forked_to_project_id: forkId,
      forked_from_project_id: sourceId,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteForkLink(db: Executor, forkId: number): Promise<ForkLinkRow | undefined> {
  return db
    .deleteFrom('forked_project_links')
    .where('forked_to_project_id', '=', forkId)
    .returningAll()
    .executeTakeFirst();
}
