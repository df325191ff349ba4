// The repository of a project (GitLab 8.13's lib/api/repositories.rb): tree, raw file by commit and
// path, raw blob by id, archive, compare and contributors. Reporters and anyone who may download the code
// of a public or internal project read them; trees, files and archives stream from git.
import { Readable } from 'node:stream';
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
import { compareJsonChunks } from '../../presenters/api-v3/compare.ts';
import { presentContributor } from '../../presenters/api-v3/contributor.ts';
import { treeJsonChunks } from '../../presenters/api-v3/tree.ts';

type ShaRequest = FastifyRequest<{ Params: { id: string; sha: string } }>;

/** Raw bytes as GitLab sent them: text/plain whatever they are, their length known. */
export function sendRaw(reply: FastifyReply, content: RawContent): FastifyReply {
  return reply.type('text/plain; charset=utf-8').header('content-length', content.size).send(content.stream);
}

/**
 * GET …/repository/archive and …/archive.:format: the archive of the commit `sha` names (the default
 * branch without one), as Workhorse answered (zip is application/zip, the tar formats
 * application/octet-stream). `withPath` (v4) reads `path`, to archive one directory.
 */
export function registerArchiveRoutes(app: FastifyInstance, deps: Deps, withPath = false): void {
  const archive = async (request: FastifyRequest, reply: FastifyReply, format: string | undefined) => {
    const project = await loadProjectRepository(deps, request);
    const params = requestParams(request);
    const { filename, stream } = await repositoryArchive(deps, project, {
      sha: optionalString(params, 'sha'),
      format,
      path: withPath ? optionalString(params, 'path') : undefined,
    });
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
}

export function register(app: FastifyInstance, deps: Deps): void {
  app.get('/projects/:id/repository/tree', async (request, reply) => {
    const project = await loadProjectRepository(deps, request);
    const params = requestParams(request);
    const recursive = toBoolean(params, 'recursive') ?? false;
    const listing = await treeListing(deps, project, {
      ref: optionalString(params, 'ref_name'),
      path: optionalString(params, 'path'),
      recursive,
    });
    return reply
      .type('application/json; charset=utf-8')
      .send(Readable.from(treeJsonChunks(listing, recursive)));
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

  registerArchiveRoutes(app, deps);

  app.get('/projects/:id/repository/compare', async (request, reply) => {
    const project = await loadProjectRepository(deps, request);
    const params = requestParams(request);
    const from = requiredString(params, 'from');
    const to = requiredString(params, 'to');
    const compare = await compareRefs(deps, project, from, to);
    return reply.type('application/json; charset=utf-8').send(Readable.from(compareJsonChunks(compare)));
  });

  app.get('/projects/:id/repository/contributors', async (request) => {
    const project = await loadProjectRepository(deps, request);
    return (await repositoryContributors(deps, project)).map(presentContributor);
  });
}
