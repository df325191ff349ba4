// Build artifacts over the runner protocol, each call made with the build's token: POST builds/:id/
// artifacts (a multipart `file`, streamed to disk; `expire_in` in the query or a field; 201 with the job payload),
// GET (the archive, for a later job that depends on this build) and DELETE.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { badRequest } from '../../errors.ts';
import { presentString, requestParams } from '../../http/params.ts';
import { sendArtifacts } from '../../http/artifacts-download.ts';
import {
  artifactsForToken,
  buildForUpload,
  deleteArtifactsForToken,
  setArtifactsExpiry,
  storeBuildArtifacts,
} from '../../services/ci/builds.ts';
import { jobPayload } from '../../views/ci-job-views.ts';
import { buildIdSegment, buildToken } from './runner-params.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.register(async (scope) => {
    await scope.register(multipart, {
      // The size check is ours (413 with GitLab's body), not the plugin's exception.
      throwFileSizeLimit: false,
      limits: { fileSize: Math.max(deps.config.artifactsMaxBytes, 1), files: 4, fields: 20, parts: 24 },
    });

    scope.post('/builds/:id/artifacts', async (request, reply) => {
      const build = await buildForUpload(deps, buildIdSegment(request), buildToken(request));
      // `expire_in` from the query or, as Grape merges both, a multipart field before or after the file.
      let expireIn = presentString(requestParams(request), 'expire_in');
      if (!request.isMultipart()) throw badRequest('Missing artifacts file!');
      let stored = false;
      let expiryAfterFile = false;
      for await (const part of request.parts()) {
        if (part.type !== 'file') {
          if (part.fieldname === 'expire_in' && typeof part.value === 'string') {
            expireIn = part.value;
            expiryAfterFile = stored;
          }
          continue;
        }
        if (part.fieldname !== 'file' || stored) {
          part.file.resume();
          continue;
        }
        await storeBuildArtifacts(deps, build, part.filename, part.file, expireIn);
        stored = true;
      }
      if (!stored) throw badRequest('Missing artifacts file!');
      if (expiryAfterFile) await setArtifactsExpiry(deps, build.id, expireIn);
      reply.code(201);
      return jobPayload(deps, build.id);
    });
  });

  app.get('/builds/:id/artifacts', async (request, reply) => {
    return sendArtifacts(reply, await artifactsForToken(deps, buildIdSegment(request), buildToken(request)));
  });

  app.delete('/builds/:id/artifacts', async (request, reply) => {
    await deleteArtifactsForToken(deps, buildIdSegment(request), buildToken(request));
    return reply.type('application/json').send('true');
  });
}
