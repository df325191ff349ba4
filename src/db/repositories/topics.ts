// Topics and the projects that carry them (migration 096). A topic is named without regard to case
// (topics_name_lower); each project's names are also kept in order in projects.topic_list.
import { sql } from 'kysely';
import type { Executor } from '../types.ts';
import type { Selectable } from 'kysely';
import type { TopicsTable } from '../schema.ts';

export type TopicRow = Selectable<TopicsTable>;

export function findTopicById(db: Executor, id: number): Promise<TopicRow | undefined> {
  return db.selectFrom('topics').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The topics of these names (any case), by lower-cased name. */
export async function findTopicsByNames(db: Executor, names: string[]): Promise<Map<string, TopicRow>> {
  const found = new Map<string, TopicRow>();
  if (names.length === 0) return found;
  const rows = await db
    .selectFrom('topics')
    .selectAll()
    .where(
      sql`lower(name)`,
      'in',
      names.map((name) => name.toLowerCase()),
    )
    .execute();
  for (const row of rows) found.set(row.name.toLowerCase(), row);
  return found;
}

export function insertTopic(db: Executor, values: Omit<TopicRow, 'id'>): Promise<TopicRow> {
  return db.insertInto('topics').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Inserts the topic unless one of that name (any case) exists; a concurrent twin is not an error. */
export async function insertTopicIfAbsent(db: Executor, values: Omit<TopicRow, 'id'>): Promise<void> {
  await db
    .insertInto('topics')
    .values(values)
    .onConflict((conflict) => conflict.expression(sql`lower(name)`).doNothing())
    .execute();
}

export function updateTopicRow(
  db: Executor,
  id: number,
  changes: Partial<Omit<TopicRow, 'id' | 'created_at'>>,
): Promise<TopicRow | undefined> {
  return db.updateTable('topics').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteTopicRow(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('topics').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

function searched(db: Executor, search: string | undefined) {
  let query = db.selectFrom('topics');
  if (search !== undefined && search !== '') {
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(title)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  return query;
}

export async function countTopics(db: Executor, search: string | undefined): Promise<number> {
  const row = await searched(db, search)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A page of topics in id order (the primary key walks them). */
export function listTopics(
  db: Executor,
  search: string | undefined,
  page: { offset: number; limit: number },
): Promise<TopicRow[]> {
  return searched(db, search).selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute();
}

/** How many projects carry each topic (project_topics_topic_project, one range per topic). */
export async function projectCountsOfTopics(db: Executor, topicIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (topicIds.length === 0) return counts;
  const rows = await db
    .selectFrom('project_topics')
    .select(['topic_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('topic_id', 'in', topicIds)
    .groupBy('topic_id')
    .execute();
  for (const row of rows) counts.set(row.topic_id, Number(row.count));
  return counts;
}

export async function projectIdsOfTopic(db: Executor, topicId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('project_topics')
    .select('project_id')
    .where('topic_id', '=', topicId)
    .execute();
  return rows.map((row) => row.project_id);
}

/** Replaces a project's topics with these, in order. */
export async function replaceProjectTopics(
  db: Executor,
  projectId: number,
  topicIds: number[],
): Promise<void> {
  await db.deleteFrom('project_topics').where('project_id', '=', projectId).execute();
  if (topicIds.length > 0) {
    await db
      .insertInto('project_topics')
      .values(topicIds.map((topicId) => ({ project_id: projectId, topic_id: topicId })))
      .execute();
  }
}

/** Moves the source topic's projects to the target (those that have both keep one link). */
export async function moveProjectTopics(db: Executor, sourceId: number, targetId: number): Promise<void> {
  await db
    .deleteFrom('project_topics as s')
    .where('s.topic_id', '=', sourceId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('project_topics as t')
          .select('t.id')
          .where('t.topic_id', '=', targetId)
          .whereRef('t.project_id', '=', 's.project_id'),
      ),
    )
    .execute();
  await db
    .updateTable('project_topics')
    .set({ topic_id: targetId })
    .where('topic_id', '=', sourceId)
    .execute();
}

/** Writes each project's topic_list again from its links, in the order they were made. */
export async function refreshTopicLists(db: Executor, projectIds: number[]): Promise<void> {
  for (const projectId of projectIds) {
    const rows = await db
      .selectFrom('project_topics as pt')
      .innerJoin('topics', 'topics.id', 'pt.topic_id')
      .select('topics.name')
      .where('pt.project_id', '=', projectId)
      .orderBy('pt.id')
      .execute();
    await db
      .updateTable('projects')
      .set({ topic_list: JSON.stringify(rows.map((row) => row.name)) })
      .where('id', '=', projectId)
      .execute();
  }
}
