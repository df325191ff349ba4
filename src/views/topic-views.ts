// Topics as the API shows them: each with how many projects carry it (one grouped read per page).
import type { Deps } from '../deps.ts';
import {
  countTopics,
  findTopicById,
  findTopicsByNames,
  listTopics,
  projectCountsOfTopics,
  type TopicRow,
} from '../db/repositories/topics.ts';

export interface TopicView {
  topic: TopicRow;
  projectsCount: number;
}

export async function topicViews(deps: Deps, topics: TopicRow[]): Promise<TopicView[]> {
  const counts = await projectCountsOfTopics(
    deps.db.kysely,
    topics.map((topic) => topic.id),
  );
  return topics.map((topic) => ({ topic, projectsCount: counts.get(topic.id) ?? 0 }));
}

/** GET /topics: its count and a page reader, for paginate. */
export function topicList(deps: Deps, search: string | undefined) {
  return {
    count: () => countTopics(deps.db.kysely, search),
    page: async (page: { offset: number; limit: number }) =>
      topicViews(deps, await listTopics(deps.db.kysely, search, page)),
  };
}

export async function findTopicView(deps: Deps, id: number): Promise<TopicView | undefined> {
  const topic = await findTopicById(deps.db.kysely, id);
  return topic && (await topicViews(deps, [topic]))[0];
}

/** How many topics one project list may ask for. */
export { MAX_LIST_TOPICS } from '../db/repositories/project-lists.ts';

/** The ids of topics by name (any case), 0 for a name no topic has: a list asking for it is empty. */
export async function topicIdsByNames(deps: Deps, names: string[]): Promise<number[]> {
  const found = await findTopicsByNames(deps.db.kysely, names);
  return names.map((name) => found.get(name.toLowerCase())?.id ?? 0);
}
