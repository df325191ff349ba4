// Tags of a project's repository (GitLab 8.13's lib/api/tags.rb): the list and one tag, with release
// notes; creating and deleting tags (pushes under the same rules as `git push`) and writing release notes
// (developers and up). `:tag_name` may hold slashes (sent raw or as %2F).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadProjectRepository, loadWritableRepository } from '../../http/loaders.ts';
import { optionalString, requestParams, requiredString, type Params } from '../../http/params.ts';
import { presentDeletedTag, presentRelease, presentTag } from '../../presenters/api-v3/tag.ts';
import { routeNotFound } from '../../errors.ts';
import { createRelease, createTag, deleteTag, updateRelease } from '../../services/repository/tag-changes.ts';
import { listTagViews, loadTagViewOr404 } from '../../views/tag-views.ts';

type WildcardRequest = FastifyRequest<{ Params: { id: string; '*': string } }>;

/** The new tag's name, what it tags and its annotation, as v3 and v4 both send them. */
export function tagCreation(params: Params) {
  return {
    name: optionalString(params, 'tag_name'),
    ref: optionalString(params, 'ref'),
    message: optionalString(params, 'message'),
  };
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/repository/tags', async (request) => {
    const project = await loadProjectRepository(deps, request);
    return (await listTagViews(deps, project)).map(presentTag);
  });

  app.get('/projects/:id/repository/tags/*', async (request: WildcardRequest) => {
    const project = await loadProjectRepository(deps, request);
    return presentTag(await loadTagViewOr404(deps, project, request.params['*']));
  });

  app.post('/projects/:id/repository/tags', async (request, reply) => {
    const pusher = await loadWritableRepository(deps, request);
    const params = requestParams(request);
    const created = await createTag(deps, pusher, {
      ...tagCreation(params),
      releaseDescription: optionalString(params, 'release_description'),
    });
    return reply.code(201).send(presentTag(created));
  });

  app.delete('/projects/:id/repository/tags/*', async (request: WildcardRequest) => {
    const pusher = await loadWritableRepository(deps, request);
    const name = request.params['*'];
    await deleteTag(deps, pusher, name);
    return presentDeletedTag(name);
  });

  // POST creates and PUT updates the release notes of `…/tags/:tag_name/release`.
  const release = async (request: WildcardRequest, create: boolean) => {
    const match = /^(.+)\/release$/s.exec(request.params['*']);
    if (!match) throw routeNotFound();
    const pusher = await loadWritableRepository(deps, request);
    const description = requiredString(requestParams(request), 'description');
    const write = create ? createRelease : updateRelease;
    return presentRelease(await write(deps, pusher, match[1], description));
  };
  app.post('/projects/:id/repository/tags/*', async (request: WildcardRequest, reply) => {
    return reply.code(201).send(await release(request, true));
  });
  app.put('/projects/:id/repository/tags/*', async (request: WildcardRequest) => {
    return release(request, false);
  });
}
