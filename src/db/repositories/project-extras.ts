// What the Project entity embeds beyond its record, for one project in one prepared statement: the owner
// of a personal namespace, the fork source's id, the number of forks and whether any group shares it
// (the shares themselves are read only then). Pages use the batched helpers in projects.ts instead.
import { prepared, rowSplitter } from '../prepared.ts';
import { USER_COLUMNS } from './users.ts';
import type { Executor, UserRow } from '../types.ts';

export interface ProjectExtraIds {
  /** Owner of the personal namespace; null for group projects. */
  owner: UserRow | null;
  forkedFromProjectId: number | null;
  forksCount: number;
  shared: boolean;
}

const splitOwner = rowSplitter({ owner: { prefix: 'u_', columns: USER_COLUMNS } });

const extrasOf = prepared<{ id: number }>()((db, slot) =>
  db
    .selectFrom('projects as p')
    .innerJoin('namespaces as n', 'n.id', 'p.namespace_id')
    .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'n.owner_id').on('n.type', 'is', null))
    .select(USER_COLUMNS.map((c) => `u.${c} as u_${c}` as const))
    .select((eb) => [
      eb
        .selectFrom('forked_project_links as f')
        .select('f.forked_from_project_id')
        .whereRef('f.forked_to_project_id', '=', 'p.id')
        .as('forked_from_project_id'),
      eb
        .selectFrom('forked_project_links as c')
        .select((inner) => inner.fn.countAll<number>().as('count'))
        .whereRef('c.forked_from_project_id', '=', 'p.id')
        .as('forks_count'),
      eb
        .exists(
          eb.selectFrom('project_group_links as l').select('l.id').whereRef('l.project_id', '=', 'p.id'),
        )
        .as('shared'),
    ])
    .where('p.id', '=', slot('id')),
);

export async function findProjectExtraIds(db: Executor, id: number): Promise<ProjectExtraIds | undefined> {
  const row = await extrasOf.first(db, { id });
  if (!row) return undefined;
  return {
    owner: row.u_id === null ? null : (splitOwner(row).owner as unknown as UserRow),
    forkedFromProjectId: row.forked_from_project_id ?? null,
    forksCount: Number(row.forks_count ?? 0),
    shared: Boolean(row.shared),
  };
}
