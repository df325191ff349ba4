// The project sets lists are made of. "Authorized" projects are those the user reaches through
// membership: direct project membership, personal namespace, group membership, or a group share (all
// unexpired). Every branch is an index lookup keyed by the user, so its cost follows the user's
// memberships, not the size of the projects table.
import { sql } from 'kysely';
import { today } from '../../lib/clock.ts';
import type { Executor } from '../types.ts';
import type { ProjectListQuery } from '../types.ts';

export function authorizedProjectIds(db: Executor, userId: number) {
  const day = today();
  return db
    .selectFrom('members as m')
    .select('m.source_id as id')
    .where('m.user_id', '=', userId)
    .where('m.source_type', '=', 'Project')
    .where(unexpiredMember())
    .union(
      db
        .selectFrom('members as m')
        .innerJoin('projects as p', 'p.namespace_id', 'm.source_id')
        .select('p.id as id')
        .where('m.user_id', '=', userId)
        .where('m.source_type', '=', 'Namespace')
        .where(unexpiredMember()),
    )
    .union(
      db
        .selectFrom('namespaces as n')
        .innerJoin('projects as p', 'p.namespace_id', 'n.id')
        .select('p.id as id')
        .where('n.owner_id', '=', userId)
        .where('n.type', 'is', null),
    )
    .union(
      db
        .selectFrom('members as m')
        .innerJoin('project_group_links as l', 'l.group_id', 'm.source_id')
        .select('l.project_id as id')
        .where('m.user_id', '=', userId)
        .where('m.source_type', '=', 'Namespace')
        .where(unexpiredMember())
        .where(sql<boolean>`(l.expires_at is null or l.expires_at > ${day})`),
    );
}

function unexpiredMember() {
  return sql<boolean>`(m.expires_at is null or m.expires_at > ${today()})`;
}

/** Projects at this level or above are visible without membership (external users: public only). */
function minimumVisibility(query: ProjectListQuery): number {
  return query.external ? 20 : 10;
}

function filtered(db: Executor, query: ProjectListQuery) {
  let q = db.selectFrom('projects as p');
  const minimumVisible = minimumVisibility(query);
  switch (query.scope) {
    case 'member':
      q = q.where('p.id', 'in', authorizedProjectIds(db, query.viewerId));
      break;
    case 'visible':
      q = q.where((eb) =>
        eb.or([
          eb('p.visibility_level', '>=', minimumVisible),
          eb('p.id', 'in', authorizedProjectIds(db, query.viewerId)),
        ]),
      );
      break;
    case 'owned':
      q = q.where((eb) =>
        eb.or([
          eb(
            'p.namespace_id',
            'in',
            db
              .selectFrom('namespaces as n')
              .select('n.id')
              .where('n.owner_id', '=', query.viewerId)
              .where('n.type', 'is', null),
          ),
          eb(
            'p.namespace_id',
            'in',
            db
              .selectFrom('members as m')
              .select('m.source_id')
              .where('m.user_id', '=', query.viewerId)
              .where('m.source_type', '=', 'Namespace')
              .where('m.access_level', '>=', 50)
              .where(unexpiredMember()),
          ),
        ]),
      );
      break;
    case 'starred':
      q = q
        .where(
          'p.id',
          'in',
          db
            .selectFrom('users_star_projects as s')
            .select('s.project_id')
            .where('s.user_id', '=', query.viewerId),
        )
        .where((eb) =>
          eb.or([
            eb('p.visibility_level', '>=', minimumVisible),
            eb('p.id', 'in', authorizedProjectIds(db, query.viewerId)),
          ]),
        );
      break;
    case 'all':
      break;
  }
  if (query.archived !== undefined) q = q.where('p.archived', '=', query.archived ? 1 : 0);
  if (query.namespaceId !== undefined) q = q.where('p.namespace_id', '=', query.namespaceId);
  if (query.visibility !== undefined) q = q.where('p.visibility_level', '=', query.visibility);
  if (query.search !== undefined && query.search !== '') {
    const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    q = q.where((eb) =>
      eb.or([like('p.name'), like('p.path'), ...(query.searchDescription ? [like('p.description')] : [])]),
    );
  }
  return q;
}

/**
 * X-Total of a list. Without a search, the visible and administrators' lists read the trigger-kept
 * project_counts (one row per visibility level and archived flag) instead of counting the table; the
 * caller's own lists count through the caller's memberships. A substring search counts its matches.
 */
export async function countProjects(db: Executor, query: ProjectListQuery): Promise<number> {
  // The counters know nothing of namespaces: a namespace's list is counted.
  const searching = (query.search !== undefined && query.search !== '') || query.namespaceId !== undefined;
  if (!searching && query.scope === 'all') return sumProjectCounts(db, query, 0);
  if (!searching && query.scope === 'visible') {
    // Visible = every project at the minimum level or above (counters) + the caller's projects below it
    // (memberships); the two sets do not overlap.
    const minimum = minimumVisibility(query);
    const [open, own] = await Promise.all([
      sumProjectCounts(db, query, minimum),
      countRows(filtered(db, { ...query, scope: 'member' }).where('p.visibility_level', '<', minimum)),
    ]);
    return open + own;
  }
  return countRows(filtered(db, query));
}

async function countRows(projects: ReturnType<typeof filtered>): Promise<number> {
  const row = await projects.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Projects at `minimumLevel` or above that pass the list's archived and visibility filters. */
async function sumProjectCounts(
  db: Executor,
  query: ProjectListQuery,
  minimumLevel: number,
): Promise<number> {
  let counts = db
    .selectFrom('project_counts')
    .select((eb) => eb.fn.sum<number | string | null>('count').as('count'))
    .where('visibility_level', '>=', minimumLevel);
  if (query.archived !== undefined) counts = counts.where('archived', '=', query.archived ? 1 : 0);
  if (query.visibility !== undefined) counts = counts.where('visibility_level', '=', query.visibility);
  const row = await counts.executeTakeFirstOrThrow();
  return Number(row.count ?? 0);
}

/** The ids of one page, in list order; the page's rows are read afterwards by id (deferred join). */
export async function pageProjectIds(
  db: Executor,
  query: ProjectListQuery,
  limit: number,
  offset: number,
): Promise<number[]> {
  let ordered = filtered(db, query).select('p.id').orderBy(`p.${query.orderBy}`, query.sort);
  if (query.orderBy !== 'id') ordered = ordered.orderBy('p.id', query.sort);
  const rows = await ordered.limit(limit).offset(offset).execute();
  return rows.map((row) => row.id);
}
