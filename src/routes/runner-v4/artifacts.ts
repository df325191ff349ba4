// Job artifacts (network/gitlab.go UploadRawArtifacts, DownloadArtifacts): POST /jobs/:id/artifacts with
// the job token, a multipart `file` and `artifact_format`, `artifact_type`, `expire_in` in the query
// (gitlab.go uploadRawArtifactsQuery); 201, 413 past LABRADOR_ARTIFACTS_MAX_BYTES, 403 once the job no
// longer runs. `archive` (zip) replaces the job's archive; a report type (`junit` in gzip, `codequality`
// raw …) is kept as the job's artifact of that type, once. GET /jobs/:id/artifacts with the JOB-TOKEN of the job or of a running job that depends on it.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { badRequest } from '../../errors.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { sendArtifacts } from '../../http/artifacts-download.ts';
import {
  artifactsForJobToken,
  runningJobForToken,
  storeBuildArtifacts,
  storeBuildReport,
  uploadKind,
} from '../../services/ci/builds.ts';
import { buildIdSegment } from '../ci-v1/runner-params.ts';
import { jobToken } from './params.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.register(async (scope) => {
    await scope.register(multipart, {
      // The size check is ours (413 with GitLab's body), not the plugin's exception.
      throwFileSizeLimit: false,
      limits: { fileSize: Math.max(deps.config.artifactsMaxBytes, 1), files: 4, fields: 20, parts: 24 },
    });

    scope.post('/jobs/:id/artifacts', async (request, reply) => {
      const { build } = await runningJobForToken(deps, buildIdSegment(request), jobToken(request));
      const query = requestParams(request);
      const report = uploadKind(
        optionalString(query, 'artifact_type'),
        optionalString(query, 'artifact_format'),
      );
      const expireIn = optionalString(query, 'expire_in');
      if (!request.isMultipart()) throw badRequest('file');
      let stored = false;
      for await (const part of request.parts()) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'file' || stored) {
          part.file.resume();
          continue;
        }
        if (report) await storeBuildReport(deps, build, report, part.filename, part.file, expireIn);
        else await storeBuildArtifacts(deps, build, part.filename, part.file, expireIn);
        stored = true;
      }
      if (!stored) throw badRequest('file');
      reply.code(201);
      return { message: '201 Created' };
    });
  });

  app.get('/jobs/:id/artifacts', async (request, reply) => {
    return sendArtifacts(reply, await artifactsForJobToken(deps, buildIdSegment(request), jobToken(request)));
  });
}
