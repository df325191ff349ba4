// The project sets lists are made of. "Authorized" projects are those the user reaches through
// membership: direct project membership, personal namespace, group membership, or a group share (all
// unexpired). Every branch is an index lookup keyed by the user, so its cost follows the user's
// memberships, not the size of the projects table.
//
// The kind of membership (source_type) is written into the SQL, not sent as a value: with it known,
// PostgreSQL's generic plan of a prepared list statement sees that group memberships are rare and costs
// the same as a custom one, so it is kept; sent as a value, every execution of the list's count and ids
// was planned anew (0.25–0.3 ms each at 10,000 projects).
import { sql, type Compilable } from 'kysely';
import { today } from '../../lib/clock.ts';
import { prepared, type PreparedQuery } from '../prepared.ts';
import type { Executor } from '../types.ts';
import type { ProjectListQuery } from '../types.ts';

const PROJECT_MEMBER = sql.lit<'Project'>('Project');
const GROUP_MEMBER = sql.lit<'Namespace'>('Namespace');

/** With `minLevel`, only memberships at that level or above (a share counts at the lower of its two). */
export function authorizedProjectIds(db: Executor, userId: number, day: string = today(), minLevel?: number) {
  const leveled = minLevel !== undefined;
  const atLeast = (column: 'm.access_level' | 'l.group_access') =>
    sql<boolean>`${sql.ref(column)} >= ${minLevel}`;
  return db
    .selectFrom('members as m')
    .select('m.source_id as id')
    .where('m.user_id', '=', userId)
    .where('m.source_type', '=', PROJECT_MEMBER)
    .where(unexpiredMember(day))
    .$if(leveled, (q) => q.where(atLeast('m.access_level')))
    .union(
      db
        .selectFrom('members as m')
        .innerJoin('projects as p', 'p.namespace_id', 'm.source_id')
        .select('p.id as id')
        .where('m.user_id', '=', userId)
        .where('m.source_type', '=', GROUP_MEMBER)
        .where(unexpiredMember(day))
        .$if(leveled, (q) => q.where(atLeast('m.access_level'))),
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
        .where('m.source_type', '=', GROUP_MEMBER)
        .where(unexpiredMember(day))
        .$if(leveled, (q) => q.where(atLeast('m.access_level')))
        .$if(leveled, (q) => q.where(atLeast('l.group_access')))
        .where(sql<boolean>`(l.expires_at is null or l.expires_at > ${day})`),
    );
}

function unexpiredMember(day: string) {
  return sql<boolean>`(m.expires_at is null or m.expires_at > ${day})`;
}

/** Projects at this level or above are visible without membership (external users: public only). */
function minimumVisibility(query: ProjectListQuery): number {
  return query.external ? 20 : 10;
}

/** The values of a list's statements; its shape (which filters, which order) comes from the query. */
interface ListValues {
  viewerId: number;
  day: string;
  minimum: number;
  archived: number;
  visibility: number;
  namespaceId: number;
  minAccessLevel: number;
  forkedFromId: number;
  idAfter: number;
  idBefore: number;
  pattern: string;
  limit: number;
  offset: number;
  topic0: number;
  topic1: number;
  topic2: number;
  topic3: number;
  topic4: number;
}

/** GET /projects?topic= takes up to this many topics (each one more slot in a prepared shape). */
export const MAX_LIST_TOPICS = 5;
const TOPIC_SLOTS = ['topic0', 'topic1', 'topic2', 'topic3', 'topic4'] as const;

type Slot = <K extends keyof ListValues & string>(name: K) => ListValues[K];

function listValues(query: ProjectListQuery, limit = 0, offset = 0): ListValues {
  const search = query.search ?? '';
  return {
    viewerId: query.viewerId,
    day: today(),
    minimum: minimumVisibility(query),
    archived: query.archived ? 1 : 0,
    visibility: query.visibility ?? 0,
    namespaceId: query.namespaceId ?? 0,
    minAccessLevel: query.minAccessLevel ?? 0,
    forkedFromId: query.forkedFromId ?? 0,
    idAfter: query.idAfter ?? 0,
    idBefore: query.idBefore ?? 0,
    pattern: `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    limit,
    offset,
    topic0: query.topicIds?.[0] ?? 0,
    topic1: query.topicIds?.[1] ?? 0,
    topic2: query.topicIds?.[2] ?? 0,
    topic3: query.topicIds?.[3] ?? 0,
    topic4: query.topicIds?.[4] ?? 0,
  };
}

function filtered(db: Executor, query: ProjectListQuery, slot: Slot) {
  let q = db.selectFrom('projects as p');
  const viewerId = slot('viewerId');
  const day = slot('day');
  switch (query.scope) {
    case 'member':
      q = q.where('p.id', 'in', authorizedProjectIds(db, viewerId, day));
      break;
    case 'visible':
      q = q.where((eb) =>
        eb.or([
          eb('p.visibility_level', '>=', slot('minimum')),
          eb('p.id', 'in', authorizedProjectIds(db, viewerId, day)),
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
              .where('n.owner_id', '=', viewerId)
              .where('n.type', 'is', null),
          ),
          eb(
            'p.namespace_id',
            'in',
            db
              .selectFrom('members as m')
              .select('m.source_id')
              .where('m.user_id', '=', viewerId)
              .where('m.source_type', '=', GROUP_MEMBER)
              .where('m.access_level', '>=', 50)
              .where(unexpiredMember(day)),
          ),
        ]),
      );
      break;
    case 'starred':
      q = q
        .where(
          'p.id',
          'in',
          db.selectFrom('users_star_projects as s').select('s.project_id').where('s.user_id', '=', viewerId),
        )
        .where((eb) =>
          eb.or([
            eb('p.visibility_level', '>=', slot('minimum')),
            eb('p.id', 'in', authorizedProjectIds(db, viewerId, day)),
          ]),
        );
      break;
    case 'all':
      break;
  }
  if (query.archived !== undefined) q = q.where('p.archived', '=', slot('archived') as 0 | 1);
  if (query.namespaceId !== undefined) q = q.where('p.namespace_id', '=', slot('namespaceId'));
  if (query.visibility !== undefined) q = q.where('p.visibility_level', '=', slot('visibility'));
  if (query.minAccessLevel !== undefined) {
    q = q.where('p.id', 'in', authorizedProjectIds(db, viewerId, day, slot('minAccessLevel')));
  }
  if (query.forkedFromId !== undefined) {
    q = q.where(
      'p.id',
      'in',
      db
        .selectFrom('forked_project_links as fl')
        .select('fl.forked_to_project_id')
        .where('fl.forked_from_project_id', '=', slot('forkedFromId')),
    );
  }
  // Every topic asked for (project_topics_topic_project: one range per topic).
  for (const name of TOPIC_SLOTS.slice(0, query.topicIds?.length ?? 0)) {
    q = q.where(
      'p.id',
      'in',
      db
        .selectFrom(`project_topics as ${name}`)
        .select(`${name}.project_id`)
        .where(`${name}.topic_id`, '=', slot(name)),
    );
  }
  if (query.idAfter !== undefined) q = q.where('p.id', '>', slot('idAfter'));
  if (query.idBefore !== undefined) q = q.where('p.id', '<', slot('idBefore'));
  if (query.withIssuesEnabled) q = q.where('p.issues_enabled', '=', 1);
  if (query.withMergeRequestsEnabled) q = q.where('p.merge_requests_enabled', '=', 1);
  if (searching(query)) {
    const pattern = slot('pattern');
    const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    q = q.where((eb) =>
      eb.or([
        like('p.name'),
        like('p.path'),
        ...(query.searchDescription ? [like('p.description')] : []),
        ...(query.searchNamespaces
          ? [
              eb(
                'p.namespace_id',
                'in',
                db
                  .selectFrom('namespaces as sn')
                  .select('sn.id')
                  .where((inner) => inner.or([like('sn.path'), like('sn.name')])),
              ),
            ]
          : []),
      ]),
    );
  }
  return q;
}

function searching(query: ProjectListQuery): boolean {
  return query.search !== undefined && query.search !== '';
}

/**
 * Each shape a list's statement takes (scope, which filters, order), compiled and prepared once: building
 * and compiling the union of a list per request cost more than running it. A few hundred at most.
 */
function shapeOf<R>(
  shapes: Map<string, PreparedQuery<ListValues, R>>,
  query: ProjectListQuery,
  build: (db: Executor, slot: Slot) => Compilable<R>,
): PreparedQuery<ListValues, R> {
  const key = [
    query.scope,
    query.archived !== undefined,
    query.visibility !== undefined,
    query.namespaceId !== undefined,
    searching(query),
    query.searchDescription,
    query.searchNamespaces === true,
    query.minAccessLevel !== undefined,
    query.withIssuesEnabled === true,
    query.withMergeRequestsEnabled === true,
    query.forkedFromId !== undefined,
    query.topicIds?.length ?? 0,
    query.idAfter !== undefined,
    query.idBefore !== undefined,
    query.orderBy,
    query.sort,
  ].join(' ');
  let shape = shapes.get(key);
  if (!shape) {
    shape = prepared<ListValues>()(build);
    shapes.set(key, shape);
  }
  return shape;
}

const countShapes = new Map<string, PreparedQuery<ListValues, { count: number | string }>>();
const ownBelowShapes = new Map<string, PreparedQuery<ListValues, { count: number | string }>>();
const pageShapes = new Map<string, PreparedQuery<ListValues, { id: number }>>();

/**
 * X-Total of a list. Without a search, the visible and administrators' lists read the trigger-kept
 * project_counts (one row per visibility level and archived flag) instead of counting the table; the
 * caller's own lists count through the caller's memberships. A substring search counts its matches.
 */
export async function countProjects(db: Executor, query: ProjectListQuery): Promise<number> {
  // The counters know nothing of namespaces: a namespace's list is counted.
  const counted =
    searching(query) ||
    query.namespaceId !== undefined ||
    query.minAccessLevel !== undefined ||
    query.withIssuesEnabled === true ||
    query.withMergeRequestsEnabled === true ||
    query.forkedFromId !== undefined ||
    query.idAfter !== undefined ||
    query.idBefore !== undefined ||
    (query.topicIds?.length ?? 0) > 0;
  const values = listValues(query);
  if (!counted && query.scope === 'all') return sumProjectCounts(db, query, 0);
  if (!counted && query.scope === 'visible') {
    // Visible = every project at the minimum level or above (counters) + the caller's projects below it
    // (memberships); the two sets do not overlap.
    const own = shapeOf(ownBelowShapes, query, (kysely, slot) =>
      filtered(kysely, { ...query, scope: 'member' }, slot)
        .where('p.visibility_level', '<', slot('minimum'))
        .select((eb) => eb.fn.countAll<number>().as('count')),
    );
    const [open, below] = await Promise.all([
      sumProjectCounts(db, query, values.minimum),
      own.first(db, values),
    ]);
    return open + Number(below?.count ?? 0);
  }
  const shape = shapeOf(countShapes, query, (kysely, slot) =>
    filtered(kysely, query, slot).select((eb) => eb.fn.countAll<number>().as('count')),
  );
  return Number((await shape.first(db, values))?.count ?? 0);
}

const projectCountsFrom = prepared<{ minimum: number }>()((db, slot) =>
  db
    .selectFrom('project_counts')
    .select((eb) => eb.fn.sum<number | string | null>('count').as('count'))
    .where('visibility_level', '>=', slot('minimum')),
);

/** Projects at `minimumLevel` or above that pass the list's archived and visibility filters. */
async function sumProjectCounts(
  db: Executor,
  query: ProjectListQuery,
  minimumLevel: number,
): Promise<number> {
  if (query.archived === undefined && query.visibility === undefined) {
    const row = await projectCountsFrom.first(db, { minimum: minimumLevel });
    return Number(row?.count ?? 0);
  }
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
  const shape = shapeOf(pageShapes, query, (kysely, slot) => {
    let ordered = filtered(kysely, query, slot).select('p.id').orderBy(`p.${query.orderBy}`, query.sort);
    if (query.orderBy !== 'id') ordered = ordered.orderBy('p.id', query.sort);
    return ordered.limit(slot('limit')).offset(slot('offset'));
  });
  const rows = await shape.all(db, listValues(query, limit, offset));
  return rows.map((row) => row.id);
}
