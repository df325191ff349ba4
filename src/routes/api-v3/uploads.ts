// POST /projects/:id/uploads: a multipart `file` stored
// under a fresh secret; answers {alt, url, markdown}. Multipart parsing is registered for this route
// only, and the file streams to disk with the configured size limit.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { badRequest } from '../../errors.ts';
import { presentUploadLink } from '../../presenters/api-v3/upload.ts';
import { storeProjectUpload } from '../../services/repository/uploads.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  const maxBytes = deps.config.uploadMaxBytes;
  app.register(async (scope) => {
    await scope.register(multipart, {
      // The size check is ours (413 with a JSON body), not the plugin's exception.
      throwFileSizeLimit: false,
      limits: { fileSize: Math.max(maxBytes, 1), files: 10, fields: 100, parts: 110 },
    });

    scope.post('/projects/:id/uploads', async (request, reply) => {
      requireViewer(request);
      // read_project is all GitLab asked for.
      const loaded = await loadProject(deps, request);
      const stored = await storeUploadedFile(deps, request, loaded);
      reply.status(201);
      return presentUploadLink(stored.secret, stored.filename);
    });
  });
}

/** The request's multipart `file` (the first), stored for the project; 400 `file` without one. */
export async function storeUploadedFile(
  deps: Deps,
  request: FastifyRequest,
  loaded: LoadedProject,
): Promise<{ secret: string; filename: string }> {
  if (!request.isMultipart()) throw badRequest('file');
  let stored: { secret: string; filename: string } | undefined;
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue;
    if (part.fieldname !== 'file' || stored || !part.filename) {
      part.file.resume();
      continue;
    }
    const file = part.file;
    stored = await storeProjectUpload(deps, loaded, part.filename, file, () => Boolean(file.truncated));
  }
  if (!stored) throw badRequest('file');
  return stored;
}
