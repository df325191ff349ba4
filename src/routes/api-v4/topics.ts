// v4's topics (lib/api/topics.rb): the list (`search`, public) and one topic for everybody; create,
// edit, delete (204) and merge for administrators. Projects take their topics through v4's project create
// and edit (`topics`, or the older `tag_list`) and are listed by them with GET /projects?topic=.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin } from '../../http/auth.ts';
import { paginate } from '../../http/pagination.ts';
import { boundedSearch, optionalInteger, optionalString, pathId, requestParams } from '../../http/params.ts';
import { recordNotFound } from '../../errors.ts';
import { createTopic, deleteTopic, mergeTopics, updateTopic } from '../../services/projects/topics.ts';
import { findTopicView, topicList, topicViews } from '../../views/topic-views.ts';
import { presentTopic } from '../../presenters/api-v4/topic.ts';
import { noContent, requireParams } from './conventions.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const topicId = (params: unknown) => {
    const id = pathId((params as Record<string, unknown>).id);
    if (id === undefined) throw recordNotFound();
    return id;
  };

  app.get('/topics', { config: { public: true } }, async (request, reply) => {
    const search = boundedSearch(optionalString(requestParams(request), 'search'));
    const { count, page } = topicList(deps, search);
    return (await paginate(request, reply, deps.config.externalUrl, count, page)).map(presentTopic);
  });

  app.get('/topics/:id', { config: { public: true } }, async (request) => {
    const view = await findTopicView(deps, topicId(request.params));
    if (!view) throw recordNotFound();
    return presentTopic(view);
  });

  app.post('/topics', async (request, reply) => {
    requireAdmin(request);
    const params = requestParams(request);
    requireParams(params, 'name', 'title');
    const topic = await createTopic(deps, {
      name: optionalString(params, 'name')!,
      title: optionalString(params, 'title')!,
      description: optionalString(params, 'description') ?? null,
    });
    const [view] = await topicViews(deps, [topic]);
    return reply.status(201).send(presentTopic(view!));
  });

  app.put('/topics/:id', async (request) => {
    requireAdmin(request);
    const params = requestParams(request);
    const topic = await updateTopic(deps, topicId(request.params), {
      name: optionalString(params, 'name'),
      title: optionalString(params, 'title'),
      description: optionalString(params, 'description'),
    });
    const [view] = await topicViews(deps, [topic]);
    return presentTopic(view!);
  });

  app.delete('/topics/:id', async (request, reply) => {
    requireAdmin(request);
    await deleteTopic(deps, topicId(request.params));
    return noContent(reply);
  });

  // Grape answers a POST 201, this one too.
  app.post('/topics/merge', async (request, reply) => {
    requireAdmin(request);
    const params = requestParams(request);
    requireParams(params, 'source_topic_id', 'target_topic_id');
    const target = await mergeTopics(
      deps,
      optionalInteger(params, 'source_topic_id')!,
      optionalInteger(params, 'target_topic_id')!,
    );
    const [view] = await topicViews(deps, [target]);
    return reply.status(201).send(presentTopic(view!));
  });
}
