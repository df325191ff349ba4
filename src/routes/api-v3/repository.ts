// The repository of a project (GitLab 8.13's lib/api/repositories.rb): tree, raw file by commit and
// path, raw blob by id, archive, compare and contributors. Reporters and anyone who may download the code
// of a public or internal project read them; trees, files and archives stream from git.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadProjectRepository } from '../../http/loaders.ts';
import { routeNotFound } from '../../errors.ts';
import { optionalString, requestParams, requiredString, toBoolean } from '../../http/params.ts';
import { ARCHIVE_FORMATS, repositoryArchive } from '../../views/archive-views.ts';
import { blobAtRevision, rawBlob, type RawContent } from '../../views/blob-views.ts';
import { compareRefs } from '../../views/compare-views.ts';
import { repositoryContributors } from '../../views/contributor-views.ts';
import { treeListing } from '../../views/tree-views.ts';

type ShaRequest = FastifyRequest<{ Params: { id: string; sha: string } }>;

function sendRaw(reply: FastifyReply, content: RawContent): FastifyReply {
  return reply.type('text/plain; charset=utf-8').header('content-length', content.size).send(content.stream);
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/repository/tree', async (request, reply) => {
    const project = await loadProjectRepository(deps, request);
    const params = requestParams(request);
    const listing = await treeListing(deps, project, {
      ref: optionalString(params, 'ref_name'),
      path: optionalString(params, 'path'),
      recursive: toBoolean(params, 'recursive') ?? false,
    });
    return reply.type('application/json; charset=utf-8').send(listing);
  });

  const blob = async (request: ShaRequest, reply: FastifyReply) => {
    const project = await loadProjectRepository(deps, request);
    const filePath = requiredString(requestParams(request), 'filepath');
    return sendRaw(reply, await blobAtRevision(deps, project, request.params.sha, filePath));
  };
  app.get('/projects/:id/repository/blobs/:sha', blob);
  app.get('/projects/:id/repository/commits/:sha/blob', blob);

  app.get('/projects/:id/repository/raw_blobs/:sha', async (request: ShaRequest, reply) => {
    const project = await loadProjectRepository(deps, request);
    return sendRaw(reply, await rawBlob(deps, project, request.params.sha));
  });

  const archive = async (request: FastifyRequest, reply: FastifyReply, format: string | undefined) => {
    const project = await loadProjectRepository(deps, request);
    const { filename, stream } = await repositoryArchive(deps, project, {
      sha: optionalString(requestParams(request), 'sha'),
      format,
    });
    // Workhorse's headers: zip is application/zip, the tar formats application/octet-stream.
    return reply
      .type(filename.endsWith('.zip') ? 'application/zip' : 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('content-transfer-encoding', 'binary')
      .header('cache-control', 'private')
      .send(stream);
  };
  app.get('/projects/:id/repository/archive', (request, reply) =>
    archive(request, reply, optionalString(requestParams(request), 'format')),
  );
  app.get(
    '/projects/:id/repository/archive.:format',
    async (request: FastifyRequest<{ Params: { id: string; format: string } }>, reply) => {
      // Other suffixes name no route, as GitLab's format requirement made them.
      if (!ARCHIVE_FORMATS.includes(request.params.format)) throw routeNotFound();
      return archive(request, reply, request.params.format);
    },
  );

  app.get('/projects/:id/repository/compare', async (request, reply) => {
    const project = await loadProjectRepository(deps, request);
    const params = requestParams(request);
    const from = requiredString(params, 'from');
    const to = requiredString(params, 'to');
    return reply.type('application/json; charset=utf-8').send(await compareRefs(deps, project, from, to));
  });

  app.get('/projects/:id/repository/contributors', async (request) => {
    const project = await loadProjectRepository(deps, request);
    return repositoryContributors(deps, project);
  });
}
