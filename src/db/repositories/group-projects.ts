// Projects of a group as a caller may see them (GitLab's GroupProjectsFinder): the group's own projects
// and the projects shared with it, filtered to public, internal (non-external callers) and authorized
// ones; administrators see all. Pages walk ids before reading rows.
import { authorizedProjectIds } from './project-lists.ts';
import type { Executor, UserRow } from '../types.ts';

export interface GroupProjectsFilter {
  groupId: number;
  viewer: UserRow;
  own: boolean;
  shared: boolean;
}

function groupProjectsQuery(db: Executor, filter: GroupProjectsFilter) {
  const { groupId, viewer } = filter;
  // The group's own projects and those shared with it: two index lookups joined by a union (an OR of
  // the two conditions would walk the whole projects table).
  const own = db.selectFrom('projects as o').select('o.id').where('o.namespace_id', '=', groupId);
  const shared = db
    .selectFrom('project_group_links as l')
    .select('l.project_id as id')
    .where('l.group_id', '=', groupId);
  const ids = filter.own && filter.shared ? own.union(shared) : filter.own ? own : shared;
  let query = db.selectFrom('projects as p').where('p.id', 'in', ids);
  if (viewer.admin !== 1) {
    const minimum = viewer.external === 1 ? 20 : 10;
    query = query.where((eb) =>
      eb.or([
        eb('p.visibility_level', '>=', minimum),
        eb('p.id', 'in', authorizedProjectIds(db, viewer.id) as any),
      ]),
    );
  }
  return query;
}

export async function countGroupProjects(db: Executor, filter: GroupProjectsFilter): Promise<number> {
  const row = await groupProjectsQuery(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function groupProjectIds(
  db: Executor,
  filter: GroupProjectsFilter,
  page?: { offset: number; limit: number },
): Promise<number[]> {
  let query = groupProjectsQuery(db, filter).select('p.id').orderBy('p.id');
  if (page) query = query.limit(page.limit).offset(page.offset);
  return (await query.execute()).map((row) => row.id);
}

/** Ids and paths of every project in a namespace (group deletion removes them all). */
export async function namespaceProjectIds(db: Executor, namespaceId: number): Promise<number[]> {
  const rows = await db.selectFrom('projects').select('id').where('namespace_id', '=', namespaceId).execute();
  return rows.map((row) => row.id);
}
