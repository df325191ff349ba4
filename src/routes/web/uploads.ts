// GET /<namespace>/<project>/uploads/<secret>/<filename>: an uploaded file, to callers who may read the
// project (signed in on the pages, or PRIVATE-TOKEN header or private_token parameter as on the API: an
// image in an issue of a private project shows to its members); hidden projects are 404.
// Images and videos are shown inline, everything else downloads as an attachment.
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { resolveViewer } from '../../http/auth.ts';
import { notFound } from '../../errors.ts';
import { readableProjectByFullPath } from '../../http/loaders.ts';
import { findUpload, isImageOrVideo, uploadContentType } from '../../storage/uploads.ts';
import { findWebSession } from '../../services/users/web-sessions.ts';
import { sessionToken } from './web-session.ts';

/** An ASCII fallback name plus the exact UTF-8 one (RFC 6266), so any stored name is a valid header. */
function contentDisposition(kind: string, filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export function registerUploadFiles(app: FastifyInstance, deps: Deps): void {
  app.register(async (scope) => {
    scope.decorateRequest('viewer', null);
    scope.decorateRequest('sudo', false);
    scope.addHook('preHandler', async (request) => {
      await resolveViewer(deps, request);
      const session = request.viewer ? undefined : sessionToken(request);
      if (session) request.viewer = (await findWebSession(deps, session))?.user ?? null;
    });

    scope.get(
      '/:namespace/:project/uploads/:secret/:filename',
      { config: { public: true } },
      async (request, reply) => {
        const params = request.params as Record<string, string>;
        const record = await readableProjectByFullPath(
          deps,
          request.viewer,
          params.namespace,
          params.project,
        );
        if (!record) throw notFound('Project');
        const file = await findUpload(
          deps.config.dataDir,
          record.namespace.path,
          record.project.path,
          params.secret,
          params.filename,
        );
        if (!file) throw notFound();
        const disposition = isImageOrVideo(params.filename) ? 'inline' : 'attachment';
        return reply
          .type(uploadContentType(params.filename))
          .header('Content-Length', String(file.size))
          .header('Content-Disposition', contentDisposition(disposition, params.filename))
          .header('X-Content-Type-Options', 'nosniff')
          .header('Cache-Control', 'private')
          .send(fs.createReadStream(file.path));
      },
    );
  });
}
