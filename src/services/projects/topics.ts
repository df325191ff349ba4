// Topics (GitLab's Projects::Topic): administrators create, edit, delete and merge them; a project's
// `topics` (v4's create and edit) are found by name without regard to case or made on the way, as
// GitLab's topic_list= does. Each write, with every project's topic_list it changes, is one transaction.
import type { Deps } from '../../deps.ts';
import {
  deleteTopicRow,
  findTopicById,
  findTopicsByNames,
  insertTopic,
  insertTopicIfAbsent,
  moveProjectTopics,
  projectIdsOfTopic,
  refreshTopicLists,
  replaceProjectTopics,
  updateTopicRow,
  type TopicRow,
} from '../../db/repositories/topics.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { ValidationErrors, apiError, recordNotFound } from '../../errors.ts';
import { now } from '../../lib/clock.ts';

export interface TopicAttributes {
  name?: string;
  title?: string;
  description?: string | null;
}

function validate(attributes: TopicAttributes): void {
  const errors = new ValidationErrors();
  if (attributes.name !== undefined) {
    if (attributes.name.trim() === '') errors.add('name', "can't be blank");
    else if (attributes.name.length > 255) errors.add('name', 'is too long (maximum is 255 characters)');
    else if (attributes.name.includes(',')) errors.add('name', 'cannot contain a comma');
  }
  if (attributes.title !== undefined) {
    if (attributes.title.trim() === '') errors.add('title', "can't be blank");
    else if (attributes.title.length > 255) errors.add('title', 'is too long (maximum is 255 characters)');
  }
  if (attributes.description && attributes.description.length > 1024) {
    errors.add('description', 'is too long (maximum is 1024 characters)');
  }
  errors.throwIfAny();
}

const nameTaken = () => {
  const errors = new ValidationErrors();
  errors.add('name', 'has already been taken');
  return errors;
};

export async function createTopic(deps: Deps, attributes: Required<TopicAttributes>): Promise<TopicRow> {
  validate(attributes);
  const at = now();
  try {
    return await insertTopic(deps.db.kysely, {
      name: attributes.name.trim(),
      title: attributes.title.trim(),
      description: attributes.description,
      created_at: at,
      updated_at: at,
    });
  } catch (error) {
    if (isUniqueViolation(error)) nameTaken().throwIfAny();
    throw error;
  }
}

export async function updateTopic(deps: Deps, id: number, attributes: TopicAttributes): Promise<TopicRow> {
  validate(attributes);
  try {
    return await deps.db.kysely.transaction().execute(async (trx) => {
      const changes = {
        ...(attributes.name !== undefined ? { name: attributes.name.trim() } : {}),
        ...(attributes.title !== undefined ? { title: attributes.title.trim() } : {}),
        ...(attributes.description !== undefined ? { description: attributes.description } : {}),
        updated_at: now(),
      };
      const topic = await updateTopicRow(trx, id, changes);
      if (!topic) throw recordNotFound();
      // A new name shows in every project that carries the topic.
      if (attributes.name !== undefined) await refreshTopicLists(trx, await projectIdsOfTopic(trx, id));
      return topic;
    });
  } catch (error) {
    if (isUniqueViolation(error)) nameTaken().throwIfAny();
    throw error;
  }
}

export async function deleteTopic(deps: Deps, id: number): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const projectIds = await projectIdsOfTopic(trx, id);
    if (!(await deleteTopicRow(trx, id))) throw recordNotFound();
    await refreshTopicLists(trx, projectIds);
  });
}

/** Moves the source's projects to the target and deletes the source (POST /topics/merge). */
export async function mergeTopics(deps: Deps, sourceId: number, targetId: number): Promise<TopicRow> {
  if (sourceId === targetId) throw apiError(400, 'The source topic and the target topic are identical.');
  return deps.db.kysely.transaction().execute(async (trx) => {
    const [source, target] = [await findTopicById(trx, sourceId), await findTopicById(trx, targetId)];
    if (!source || !target) throw recordNotFound();
    const projectIds = await projectIdsOfTopic(trx, sourceId);
    await moveProjectTopics(trx, sourceId, targetId);
    await deleteTopicRow(trx, sourceId);
    await refreshTopicLists(trx, projectIds);
    return target;
  });
}

/** Names as v4 takes them (a list, or one comma-separated text): trimmed, blanks and repeats dropped. */
export function topicNames(values: string[]): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const name of values.flatMap((value) => value.split(',')).map((value) => value.trim())) {
    if (name === '' || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

/**
 * Sets a project's topics (names already through topicNames), making the ones that do not exist;
 * answers the project's topic_list as stored.
 */
export async function setProjectTopics(deps: Deps, projectId: number, names: string[]): Promise<string> {
  const errors = new ValidationErrors();
  for (const name of names)
    if (name.length > 255) errors.add('topics', 'is too long (maximum is 255 characters)');
  errors.throwIfAny();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const at = now();
    const known = await findTopicsByNames(trx, names);
    for (const name of names) {
      if (!known.has(name.toLowerCase())) {
        await insertTopicIfAbsent(trx, {
          name,
          title: name,
          description: null,
          created_at: at,
          updated_at: at,
        });
      }
    }
    const topics = known.size === names.length ? known : await findTopicsByNames(trx, names);
    await replaceProjectTopics(
      trx,
      projectId,
      names.map((name) => topics.get(name.toLowerCase())!.id),
    );
    await refreshTopicLists(trx, [projectId]);
    return JSON.stringify(names.map((name) => topics.get(name.toLowerCase())!.name));
  });
}
