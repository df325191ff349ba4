// Activity rows. Lists walk (project_id, id) or (author_id, id) newest first, with the offset applied to
// the index before the page's rows are read (deferred join), so deep pages cost what page 1 costs.
// v4's filters (EventFilter) are conditions on the rows that walk reaches, its order the walk's direction.
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import { authorizedProjectIds } from './project-lists.ts';
import { prepared } from '../prepared.ts';
import type { EventRow, Executor, NewEvent } from '../types.ts';

export function insertEvent(db: Executor, values: NewEvent): Promise<EventRow> {
  return db.insertInto('events').values(values).returningAll().executeTakeFirstOrThrow();
}

/** GitLab's reset_project_activity: last_activity_at follows events, written at most once an hour. */
export async function touchProjectActivity(db: Executor, projectId: number, at: string): Promise<void> {
  const hourAgo = new Date(Date.parse(at) - 3600_000).toISOString();
  await db
    .updateTable('projects')
    .set({ last_activity_at: at })
    .where('id', '=', projectId)
    .where('last_activity_at', '<=', hourAgo)
    .execute();
}

/** Every column, named: a prepared shape keeps its result shape when a migration adds a column. */
const EVENT_COLUMNS = [
  'id',
  'project_id',
  'author_id',
  'action',
  'target_id',
  'target_type',
  'title',
  'data',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof EventRow>;

/**
 * v4's filters of an event list (GitLab's EventsFinder): one action code, one stored target type, a
 * window of days (`createdBefore`: created before that day began; `createdFrom`: on or after that day,
 * both `YYYY-MM-DD`, compared with the ISO text of created_at), and the order of ids.
 */
export interface EventFilter {
  action?: number;
  targetType?: string;
  createdBefore?: string;
  createdFrom?: string;
  order: 'asc' | 'desc';
}

type EventsAsE = ExpressionBuilder<Database & { e: Database['events'] }, 'e'>;

function filterConditions(eb: EventsAsE, filter: EventFilter) {
  const conditions = [];
  if (filter.action !== undefined) conditions.push(eb('e.action', '=', filter.action));
  if (filter.targetType !== undefined) conditions.push(eb('e.target_type', '=', filter.targetType));
  if (filter.createdBefore !== undefined) conditions.push(eb('e.created_at', '<', filter.createdBefore));
  if (filter.createdFrom !== undefined) conditions.push(eb('e.created_at', '>=', filter.createdFrom));
  return eb.and(conditions);
}

/** A project's events through a filter, on the (project_id, id) index. */
function filteredProjectEvents(db: Executor, projectId: number, filter: EventFilter) {
  return db
    .selectFrom('events as e')
    .where('e.project_id', '=', projectId)
    .where((eb) => filterConditions(eb, filter));
}

const projectEventCount = prepared<{ projectId: number }>()((db, slot) =>
  db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('project_id', '=', slot('projectId')),
);

/** The project's events, or (given a filter) those it keeps. */
export async function countProjectEvents(
  db: Executor,
  projectId: number,
  filter?: EventFilter,
): Promise<number> {
  const row = filter
    ? await filteredProjectEvents(db, projectId, filter)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirst()
    : await projectEventCount.first(db, { projectId });
  return Number(row?.count ?? 0);
}

const projectEventPage = prepared<{ projectId: number; limit: number; offset: number }>()((db, slot) =>
  db
    .selectFrom('events')
    .select(EVENT_COLUMNS)
    .where(
      'id',
      'in',
      db
        .selectFrom('events')
        .select('id')
        .where('project_id', '=', slot('projectId'))
        .orderBy('id', 'desc')
        .limit(slot('limit'))
        .offset(slot('offset')),
    )
    .orderBy('id', 'desc'),
);

export function listProjectEvents(
  db: Executor,
  projectId: number,
  limit: number,
  offset: number,
  filter?: EventFilter,
): Promise<EventRow[]> {
  if (!filter) return projectEventPage.all(db, { projectId, limit, offset });
  const ids = filteredProjectEvents(db, projectId, filter)
    .select('e.id')
    .orderBy('e.id', filter.order)
    .limit(limit)
    .offset(offset);
  return db
    .selectFrom('events')
    .select(EVENT_COLUMNS)
    .where('id', 'in', ids)
    .orderBy('id', filter.order)
    .execute();
}

/** Which projects' events the viewer sees: all of them, or those at least this visible plus the viewer's own. */
export interface EventVisibility {
  viewerId: number;
  seesAll: boolean;
  minimumVisibility: number;
}

function userEventsQuery(
  db: Executor,
  authorId: number,
  visibility: EventVisibility,
  filter: EventFilter | undefined,
) {
  let query = db
    .selectFrom('events as e')
    .innerJoin('projects as p', 'p.id', 'e.project_id')
    .where('e.author_id', '=', authorId);
  if (filter) query = query.where((eb) => filterConditions(eb, filter));
  if (!visibility.seesAll) {
    query = query.where((eb) =>
      eb.or([
        eb('p.visibility_level', '>=', visibility.minimumVisibility),
        eb('p.id', 'in', authorizedProjectIds(db, visibility.viewerId)),
      ]),
    );
  }
  return query;
}

export async function countUserEvents(
  db: Executor,
  authorId: number,
  visibility: EventVisibility,
  filter?: EventFilter,
): Promise<number> {
  const row = await userEventsQuery(db, authorId, visibility, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function listUserEvents(
  db: Executor,
  authorId: number,
  visibility: EventVisibility,
  limit: number,
  offset: number,
  filter?: EventFilter,
): Promise<EventRow[]> {
  const order = filter?.order ?? 'desc';
  const ids = userEventsQuery(db, authorId, visibility, filter)
    .select('e.id')
    .orderBy('e.id', order)
    .limit(limit)
    .offset(offset);
  return db.selectFrom('events').selectAll().where('id', 'in', ids).orderBy('id', order).execute();
}

/** Events of the projects a user is a member of (directly, through a group, or as owner), newest first. */
export function listMemberProjectEvents(
  db: Executor,
  userId: number,
  limit: number,
  offset: number,
): Promise<EventRow[]> {
  const ids = db
    .selectFrom('events as e')
    .select('e.id')
    .where('e.project_id', 'in', authorizedProjectIds(db, userId))
    .orderBy('e.id', 'desc')
    .limit(limit)
    .offset(offset);
  return db.selectFrom('events').selectAll().where('id', 'in', ids).orderBy('id', 'desc').execute();
}

/** The newest event of this action on each of these targets (closed, merged): its author and time. */
export async function latestTargetEvents(
  db: Executor,
  targetType: string,
  targetIds: number[],
  action: number,
): Promise<Map<number, { authorId: number; createdAt: string }>> {
  const result = new Map<number, { authorId: number; createdAt: string }>();
  if (targetIds.length === 0) return result;
  const rows = await db
    .selectFrom('events')
    .select(['target_id', 'author_id', 'created_at', 'id'])
    .where('target_type', '=', targetType)
    .where('target_id', 'in', [...new Set(targetIds)])
    .where('action', '=', action)
    .orderBy('id', 'asc')
    .execute();
  for (const row of rows) result.set(row.target_id!, { authorId: row.author_id, createdAt: row.created_at });
  return result;
}
